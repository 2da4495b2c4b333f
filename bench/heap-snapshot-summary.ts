/**
 * What grew in the host's heap between two V8 heap snapshots (the `.heapsnapshot` JSON that
 * `HeapProfiler.takeHeapSnapshot` streams): objects counted and their self size summed by constructor,
 * then the two compared. Self size, not retained: a dominator tree of a 30 MB heap is more than a
 * benchmark needs, and what leaks shows as many more objects of one constructor.
 */

/** The parts of a heap snapshot this reads. */
export interface HeapSnapshot {
  readonly snapshot: {
    readonly meta: {
      readonly node_fields: readonly string[];
      readonly node_types: readonly unknown[];
    };
  };
  readonly nodes: readonly number[];
  readonly strings: readonly string[];
}

/** Objects of one constructor in a snapshot. */
export interface ConstructorTotal {
  readonly count: number;
  readonly bytes: number;
}

/** One constructor's figures in both snapshots. */
export interface HeapGrowth {
  readonly name: string;
  readonly countBefore: number;
  readonly countAfter: number;
  readonly bytesBefore: number;
  readonly bytesAfter: number;
}

/**
 * Count and self size by constructor, named as the DevTools' summary names them: an object by its
 * constructor, a closure as `name()`, strings, arrays, compiled code and the engine's own objects in
 * parentheses.
 */
export function summariseHeapSnapshot(heap: HeapSnapshot): Map<string, ConstructorTotal> {
  const fields = heap.snapshot.meta.node_fields;
  const typeNames = heap.snapshot.meta.node_types[0];
  const width = fields.length;
  const typeAt = fields.indexOf('type');
  const nameAt = fields.indexOf('name');
  const sizeAt = fields.indexOf('self_size');
  if (!Array.isArray(typeNames) || typeAt === -1 || nameAt === -1 || sizeAt === -1)
    throw new Error('Not a V8 heap snapshot: its meta has no type, name or self_size');
  const totals = new Map<string, ConstructorTotal>();
  for (let at = 0; at + width <= heap.nodes.length; at += width) {
    const type = String(typeNames[heap.nodes[at + typeAt] ?? -1] ?? 'unknown');
    const name = heap.strings[heap.nodes[at + nameAt] ?? -1] ?? '';
    const key = groupName(type, name);
    const total = totals.get(key);
    const bytes = heap.nodes[at + sizeAt] ?? 0;
    totals.set(key, { count: (total?.count ?? 0) + 1, bytes: (total?.bytes ?? 0) + bytes });
  }
  return totals;
}

function groupName(type: string, name: string): string {
  switch (type) {
    case 'object':
    case 'native':
    case 'synthetic':
      return name === '' ? `(${type})` : name;
    case 'closure':
      return `${name === '' ? '(anonymous)' : name}()`;
    case 'string':
    case 'concatenated string':
    case 'sliced string':
      return '(string)';
    case 'code':
      return '(compiled code)';
    case 'hidden':
      return '(system)';
    default:
      return `(${type})`;
  }
}

/** Every object of a snapshot: its count and self size. */
export function totalOf(totals: ReadonlyMap<string, ConstructorTotal>): ConstructorTotal {
  let count = 0;
  let bytes = 0;
  for (const total of totals.values()) {
    count += total.count;
    bytes += total.bytes;
  }
  return { count, bytes };
}

/** The constructors whose self size grew most from `before` to `after`, largest growth first. */
export function compareHeapSnapshots(
  before: ReadonlyMap<string, ConstructorTotal>,
  after: ReadonlyMap<string, ConstructorTotal>,
  top = 15,
): HeapGrowth[] {
  const names = new Set([...before.keys(), ...after.keys()]);
  return [...names]
    .map((name) => ({
      name,
      countBefore: before.get(name)?.count ?? 0,
      countAfter: after.get(name)?.count ?? 0,
      bytesBefore: before.get(name)?.bytes ?? 0,
      bytesAfter: after.get(name)?.bytes ?? 0,
    }))
    .filter((row) => row.bytesAfter > row.bytesBefore || row.countAfter > row.countBefore)
    .sort((a, b) => b.bytesAfter - b.bytesBefore - (a.bytesAfter - a.bytesBefore) || a.name.localeCompare(b.name))
    .slice(0, top);
}

/** A Markdown section: the heap in each snapshot and the constructors that grew most. */
export function describeHeapGrowth(
  growth: readonly HeapGrowth[],
  totals: {
    before: ConstructorTotal;
    after: ConstructorTotal;
    minutes: readonly [number, number];
    /** Whose heap, as the heading names it (the host's unless said). */
    subject?: string;
  },
): string[] {
  const kb = (bytes: number) => (bytes / 1024).toFixed(0);
  const signed = (value: number, text: string) => `${value > 0 ? '+' : ''}${text}`;
  return [
    `## What grew in ${totals.subject ?? "the host's heap"} (snapshots at minute ${totals.minutes[0].toFixed(1)} and ${totals.minutes[1].toFixed(1)})`,
    '',
    `Live objects: ${totals.before.count} → ${totals.after.count}, self size ${kb(totals.before.bytes)} → ${kb(totals.after.bytes)} KB (after a full GC, which taking a snapshot does).`,
    '',
    '| constructor | count before | count after | Δ count | KB before | KB after | Δ KB |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...growth.map(
      (row) =>
        `| \`${row.name.replace(/\|/g, '\\|').replace(/`/g, "'").slice(0, 80)}\` | ${row.countBefore} | ${row.countAfter} | ${signed(row.countAfter - row.countBefore, String(row.countAfter - row.countBefore))} | ${kb(row.bytesBefore)} | ${kb(row.bytesAfter)} | ${signed(row.bytesAfter - row.bytesBefore, kb(row.bytesAfter - row.bytesBefore))} |`,
    ),
  ];
}
