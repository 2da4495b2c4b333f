/** A flat record of values, each compared with `Object.is`. */
export type Fields = Readonly<Record<string, string | number | boolean | null>>;

/** `last` when `next` has the same fields with the same values (so a selector's result stays the same object), else `next`. */
export function sameFieldsOr<T extends Fields>(last: T | null, next: T): T {
  if (last === null) return next;
  const keys = Object.keys(next);
  if (keys.length !== Object.keys(last).length) return next;
  return keys.every((key) => Object.is(last[key], next[key])) ? last : next;
}
