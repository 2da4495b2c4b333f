import type { SessionBranches, TurnVersion, TurnVersions } from '../../src-shared/branch-model';
import type { TranscriptItem } from '../../src-shared/model';

/** Where ‹ or › goes: a session, and the message there to scroll to. */
export interface VersionTarget {
  readonly sessionId: string;
  readonly itemId: string | null;
}

/** "‹ 2 / 3 ›" under a message: which version this is (from 1), how many there are, and where each arrow goes. */
export interface VersionSwitch {
  readonly position: number;
  readonly count: number;
  readonly previous: VersionTarget | null;
  readonly next: VersionTarget | null;
}

/**
 * A turn's versions show under the person's message when one of them changed it (an edit, or a new
 * message after a rewind), and under the turn's answer when every other version regenerated it.
 */
function anchorOf(slot: TurnVersions): 'message' | 'answer' {
  return slot.versions.some((version) => version.origin === 'edit' || version.origin === 'rewind')
    ? 'message'
    : 'answer';
}

const itemOf = (version: TurnVersion, anchor: 'message' | 'answer') =>
  anchor === 'message'
    ? (version.messageItemId ?? version.answerItemId)
    : (version.answerItemId ?? version.messageItemId);

const targetOf = (version: TurnVersion | undefined, anchor: 'message' | 'answer'): VersionTarget | null =>
  version === undefined ? null : { sessionId: version.sessionId, itemId: itemOf(version, anchor) };

/** The version switch under `item`, or null when its turn has one version or the switch belongs under another message of it. */
export function versionSwitchAt(
  links: SessionBranches | undefined,
  item: Pick<TranscriptItem, 'itemId' | 'turnId'>,
): VersionSwitch | null {
  const slot = links?.versions.find((candidate) => candidate.turnId === item.turnId);
  const own = slot?.versions[slot.index];
  if (slot === undefined || own === undefined) return null;
  const anchor = anchorOf(slot);
  if (itemOf(own, anchor) !== item.itemId) return null;
  return {
    position: slot.index + 1,
    count: slot.versions.length,
    previous: targetOf(slot.versions[slot.index - 1], anchor),
    next: targetOf(slot.versions[slot.index + 1], anchor),
  };
}

/** The sessions that are versions of `item`'s turn (their branch links give way to the switch). */
export function versionSessionsAt(links: SessionBranches | undefined, turnId: string): ReadonlySet<string> {
  const slot = links?.versions.find((candidate) => candidate.turnId === turnId);
  return new Set(slot?.versions.map((version) => version.sessionId) ?? []);
}
