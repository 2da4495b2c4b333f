import { describe, expect, it } from 'vitest';
import {
  compareHeapSnapshots,
  describeHeapGrowth,
  summariseHeapSnapshot,
  totalOf,
  type HeapSnapshot,
} from '../bench/heap-snapshot-summary';

/** A heap snapshot in V8's layout: node fields flattened, names as indexes into `strings`. */
function snapshot(nodes: ReadonlyArray<[type: string, name: string, selfSize: number]>): HeapSnapshot {
  const types = ['hidden', 'array', 'string', 'object', 'code', 'closure', 'number', 'native', 'concatenated string'];
  const strings: string[] = [];
  const indexOf = (text: string) => (strings.includes(text) ? strings.indexOf(text) : strings.push(text) - 1);
  return {
    snapshot: {
      meta: {
        node_fields: ['type', 'name', 'id', 'self_size', 'edge_count', 'trace_node_id', 'detachedness'],
        node_types: [types, 'string', 'number'],
      },
    },
    nodes: nodes.flatMap(([type, name, size], id) => [types.indexOf(type), indexOf(name), id * 2 + 1, size, 0, 0, 0]),
    strings,
  };
}

const before = snapshot([
  ['object', 'Session', 100],
  ['object', 'Map', 40],
  ['string', 'session-1', 24],
  ['closure', 'onEvent', 32],
  ['code', 'compiled', 500],
]);
const after = snapshot([
  ['object', 'Session', 100],
  ['object', 'Session', 100],
  ['object', 'Session', 100],
  ['object', 'Map', 40],
  ['string', 'session-1', 24],
  ['concatenated string', 'session-2', 24],
  ['closure', 'onEvent', 32],
  ['closure', 'onEvent', 32],
  ['closure', '', 16],
  ['code', 'compiled', 500],
]);

describe('heap snapshot summary (bench endurance --heap-snapshots)', () => {
  it('counts objects and sums their self size by constructor, named as the DevTools name them', () => {
    const totals = summariseHeapSnapshot(after);
    expect(Object.fromEntries(totals)).toEqual({
      Session: { count: 3, bytes: 300 },
      Map: { count: 1, bytes: 40 },
      '(string)': { count: 2, bytes: 48 },
      'onEvent()': { count: 2, bytes: 64 },
      '(anonymous)()': { count: 1, bytes: 16 },
      '(compiled code)': { count: 1, bytes: 500 },
    });
    expect(totalOf(totals)).toEqual({ count: 10, bytes: 968 });
  });

  it('lists what grew most first, leaves out what did not grow, and writes it as a table', () => {
    const growth = compareHeapSnapshots(summariseHeapSnapshot(before), summariseHeapSnapshot(after));
    expect(growth.map((row) => row.name)).toEqual(['Session', 'onEvent()', '(string)', '(anonymous)()']);
    expect(growth[0]).toEqual({ name: 'Session', countBefore: 1, countAfter: 3, bytesBefore: 100, bytesAfter: 300 });
    expect(compareHeapSnapshots(summariseHeapSnapshot(before), summariseHeapSnapshot(after), 1)).toHaveLength(1);
    const lines = describeHeapGrowth(growth, {
      before: totalOf(summariseHeapSnapshot(before)),
      after: totalOf(summariseHeapSnapshot(after)),
      minutes: [1.75, 12],
    });
    expect(lines[0]).toBe("## What grew in the host's heap (snapshots at minute 1.8 and 12.0)");
    expect(
      describeHeapGrowth(growth, {
        before: totalOf(summariseHeapSnapshot(before)),
        after: totalOf(summariseHeapSnapshot(after)),
        minutes: [1.75, 12],
        subject: "page 1's JS heap (busiest session)",
      })[0],
    ).toBe("## What grew in page 1's JS heap (busiest session) (snapshots at minute 1.8 and 12.0)");
    expect(lines).toContain('| `Session` | 1 | 3 | +2 | 0 | 0 | +0 |');
  });

  it('refuses a file that is not a heap snapshot', () => {
    expect(() =>
      summariseHeapSnapshot({ snapshot: { meta: { node_fields: ['id'], node_types: [[]] } }, nodes: [], strings: [] }),
    ).toThrow(/Not a V8 heap snapshot/);
  });
});
