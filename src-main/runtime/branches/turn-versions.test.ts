import { describe, expect, it } from 'vitest';
import type { FamilyMember } from '../../storage/branch-store';
import { turnVersions } from './turn-versions';

const turn = (turnId: string, ordinal: number, createdAt = ordinal) => ({ turnId, ordinal, createdAt });

describe('turnVersions', () => {
  const root: FamilyMember = { sessionId: 'root', branch: null, turns: [turn('a', 1), turn('b', 2), turn('c', 3)] };
  // Edited at b (made at time 10), and a branch of that branch regenerated at its own turn.
  const edit: FamilyMember = {
    sessionId: 'edit',
    branch: { cutOrdinal: 2, mode: 'edit' },
    turns: [turn('a', 1), turn('b2', 2, 10)],
  };
  const regen: FamilyMember = {
    sessionId: 'regen',
    branch: { cutOrdinal: 2, mode: 'regenerate' },
    turns: [turn('a', 1), turn('b3', 2, 20)],
  };
  // Rewound to before a, then a new first message.
  const rewound: FamilyMember = {
    sessionId: 'rewound',
    branch: { cutOrdinal: 1, mode: 'rewind' },
    turns: [turn('z', 1, 30)],
  };

  it('offers one version per different turn at each place, oldest first', () => {
    expect(turnVersions('root', [root, edit, regen, rewound])).toEqual([
      {
        turnId: 'a',
        index: 0,
        versions: [
          { sessionId: 'root', turnId: 'a', origin: 'original', createdAt: 1 },
          { sessionId: 'rewound', turnId: 'z', origin: 'rewind', createdAt: 30 },
        ],
      },
      {
        turnId: 'b',
        index: 0,
        versions: [
          { sessionId: 'root', turnId: 'b', origin: 'original', createdAt: 2 },
          { sessionId: 'edit', turnId: 'b2', origin: 'edit', createdAt: 10 },
          { sessionId: 'regen', turnId: 'b3', origin: 'regenerate', createdAt: 20 },
        ],
      },
    ]);
  });

  it('marks the open session’s own version and opens a version copied into several sessions where it was made', () => {
    // A branch of the root at c holds a copy of b: from the edit branch, b opens in the root, not in the copy.
    const copy: FamilyMember = {
      sessionId: 'copy',
      branch: { cutOrdinal: 3, mode: 'edit' },
      turns: [turn('a', 1), turn('b', 2), turn('c2', 3, 40)],
    };
    expect(
      turnVersions('edit', [root, edit, copy]).map((slot) => [
        slot.index,
        slot.versions.map((version) => version.sessionId),
      ]),
    ).toEqual([[1, ['root', 'edit']]]);
    expect(
      turnVersions('copy', [root, edit, copy]).map((slot) => [
        slot.turnId,
        slot.index,
        slot.versions.map((version) => version.sessionId),
      ]),
    ).toEqual([
      ['b', 0, ['copy', 'edit']],
      ['c2', 1, ['root', 'copy']],
    ]);
  });

  it('has nothing for a session alone', () => {
    expect(turnVersions('root', [root])).toEqual([]);
  });
});
