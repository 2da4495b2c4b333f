import { describe, expect, it } from 'vitest';
import type { SessionBranches, TurnVersion } from '../../src-shared/branch-model';
import { versionSessionsAt, versionSwitchAt } from './version-switch';

const version = (
  sessionId: string,
  origin: TurnVersion['origin'],
  answerItemId: string | null = `${sessionId}-a`,
): TurnVersion => ({
  sessionId,
  turnId: `${sessionId}-t`,
  messageItemId: `${sessionId}-m`,
  answerItemId,
  origin,
  createdAt: 1,
});
const links = (index: number, versions: TurnVersion[]): SessionBranches => ({
  branchedFrom: null,
  branches: [],
  versions: [{ turnId: versions[index]?.turnId ?? '', index, versions }],
});

describe('versionSwitchAt', () => {
  it('puts an edited turn’s switch under the person’s message, with arrows to the messages of the versions beside it', () => {
    const edited = links(1, [version('s1', 'original'), version('b1', 'edit'), version('b2', 'regenerate')]);
    expect(versionSwitchAt(edited, { itemId: 'b1-m', turnId: 'b1-t' })).toEqual({
      position: 2,
      count: 3,
      previous: { sessionId: 's1', itemId: 's1-m' },
      next: { sessionId: 'b2', itemId: 'b2-m' },
    });
    expect(versionSwitchAt(edited, { itemId: 'b1-a', turnId: 'b1-t' })).toBeNull();
  });

  it('puts a regenerated turn’s switch under the answer; the first version has no previous, the last no next', () => {
    const regenerated = links(0, [version('s1', 'original'), version('b1', 'regenerate')]);
    expect(versionSwitchAt(regenerated, { itemId: 's1-m', turnId: 's1-t' })).toBeNull();
    expect(versionSwitchAt(regenerated, { itemId: 's1-a', turnId: 's1-t' })).toEqual({
      position: 1,
      count: 2,
      previous: null,
      next: { sessionId: 'b1', itemId: 'b1-a' },
    });
    // An answer still being written: the arrow opens the version at its message.
    const streaming = links(1, [version('s1', 'original'), version('b1', 'regenerate', null)]);
    expect(versionSwitchAt(streaming, { itemId: 'b1-m', turnId: 'b1-t' })).toMatchObject({
      position: 2,
      previous: { sessionId: 's1', itemId: 's1-a' },
    });
  });

  it('has no switch for a turn with one version, and names the sessions a turn’s versions are in', () => {
    expect(versionSwitchAt(undefined, { itemId: 'x', turnId: 't' })).toBeNull();
    expect(
      versionSwitchAt({ branchedFrom: null, branches: [], versions: [] }, { itemId: 'x', turnId: 't' }),
    ).toBeNull();
    expect([...versionSessionsAt(links(0, [version('s1', 'original'), version('b1', 'edit')]), 's1-t')]).toEqual([
      's1',
      'b1',
    ]);
  });
});
