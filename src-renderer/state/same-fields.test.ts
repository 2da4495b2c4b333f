import { describe, expect, it } from 'vitest';
import { sameFieldsOr } from './same-fields';

describe('sameFieldsOr', () => {
  it('keeps the earlier record while every field is the same, and takes the new one when one differs', () => {
    const first = { title: 'Plan', activity: 'running', selected: false, goal: null, updatedAt: 1 };
    expect(sameFieldsOr(null, first)).toBe(first);
    expect(sameFieldsOr(first, { ...first })).toBe(first);
    const renamed = { ...first, title: 'Plan B' };
    expect(sameFieldsOr(first, renamed)).toBe(renamed);
    const selected = { ...first, selected: true };
    expect(sameFieldsOr(first, selected)).toBe(selected);
    const touched = { ...first, updatedAt: 2 };
    expect(sameFieldsOr(first, touched)).toBe(touched);
  });

  it('compares as Object.is does, and a record with another set of fields is new', () => {
    const nan = { value: Number.NaN };
    expect(sameFieldsOr(nan, { value: Number.NaN })).toBe(nan);
    const zero = { value: 0 };
    const negative = { value: -0 };
    expect(sameFieldsOr(zero, negative)).toBe(negative);
    const fewer: Record<string, number> = { a: 1, b: 2 };
    const one: Record<string, number> = { a: 1 };
    expect(sameFieldsOr(fewer, one)).toBe(one);
  });
});
