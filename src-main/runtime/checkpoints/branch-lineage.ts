import type { BranchStore } from '../../storage/branch-store';
import type { ChangeSetSummary, CheckpointStore, StoredChangeSet } from '../../storage/checkpoint-store';
import type { SessionStore } from '../../storage/session-store';
import type { TurnStore } from '../../storage/turn-store';

/** What the lineage reads: whether a session exists, its change sets, and where it branched from. */
export interface LineageStores {
  readonly sessions: Pick<SessionStore, 'get'>;
  readonly checkpoints: Pick<CheckpointStore, 'list'>;
  readonly branches: Pick<BranchStore, 'get'>;
}

/** The change sets that made a session's files what they are, oldest first. */
export interface Lineage<T = StoredChangeSet> {
  readonly changeSets: readonly T[];
  /**
   * When a session on the way back was made from one since deleted (its change sets went with it):
   * the time that branch was made. The files of turns before it cannot be put back exactly.
   */
  readonly unknownBefore: number | null;
}

/**
 * A branch (Edit, Regenerate, Rewind) copies its source's turns but not their change sets: those stay
 * the source's. The files a branch sees are what its source's change sets left when the branch was
 * made (each source read the same way, to any depth), then what its own change sets did since. So
 * the lineage is every change set of the source made up to the branch's creation, then the branch's
 * own — a rewind's change set follows the very change sets it undid, and a rewind from a branch
 * goes back through them in order. With `turnId`, only the change sets made for that turn are read.
 */
export function branchLineage(stores: LineageStores, sessionId: string, turnId?: string): Lineage {
  return lineageOf(stores, sessionId, (session) => stores.checkpoints.list(session, turnId));
}

/** The lineage of `branchLineage`, each session's change sets read by `read`. */
function lineageOf<T extends { readonly createdAt: number }>(
  stores: Omit<LineageStores, 'checkpoints'>,
  sessionId: string,
  read: (sessionId: string) => T[],
): Lineage<T> {
  const generations: T[][] = [];
  const seen = new Set<string>();
  let current: string | null = sessionId;
  let until = Number.POSITIVE_INFINITY;
  let unknownBefore: number | null = null;
  while (current !== null && !seen.has(current)) {
    seen.add(current);
    const limit = until;
    generations.unshift(read(current).filter((changeSet) => changeSet.createdAt <= limit));
    const branch = stores.branches.get(current);
    if (branch === null) break;
    if (stores.sessions.get(branch.sourceSessionId) === null) {
      unknownBefore = branch.now;
      break;
    }
    until = Math.min(until, branch.now);
    current = branch.sourceSessionId;
  }
  return { changeSets: generations.flat(), unknownBefore };
}

/**
 * The change sets Changes lists for a session: its own, and those of its lineage made for a turn it
 * holds (a branch's copied turns keep their ids), so a branch shows, and can revert, what its copied
 * turns did. The source's other turns (those a rewind undid, or after an edited message) are not the
 * branch's conversation and are left out; a rewind still goes back through them.
 */
export function sessionChangeSets(
  stores: LineageStores & TurnStores,
  sessionId: string,
  turnId?: string,
): StoredChangeSet[] {
  return ownChangeSets(stores, sessionId, turnId, branchLineage(stores, sessionId, turnId).changeSets);
}

/** The change sets `sessionChangeSets` finds, as `changes.list` lists them: each with its first `firstFiles` files and its totals. */
export function sessionChangeSetSummaries(
  stores: Omit<LineageStores, 'checkpoints'> &
    TurnStores & { readonly checkpoints: Pick<CheckpointStore, 'summaries'> },
  sessionId: string,
  turnId: string | undefined,
  firstFiles: number,
): ChangeSetSummary[] {
  const lineage = lineageOf(stores, sessionId, (session) => stores.checkpoints.summaries(session, turnId, firstFiles));
  return ownChangeSets(stores, sessionId, turnId, lineage.changeSets);
}

type TurnStores = { readonly turns: Pick<TurnStore, 'getTurn'> };

/** Of a lineage, the session's own change sets and those of a turn it holds (with `turnId`, that turn's only). */
function ownChangeSets<T extends { readonly sessionId: string; readonly turnId: string }>(
  stores: TurnStores,
  sessionId: string,
  turnId: string | undefined,
  lineage: readonly T[],
): T[] {
  return lineage.filter(
    (changeSet) =>
      (turnId === undefined || changeSet.turnId === turnId) &&
      (changeSet.sessionId === sessionId || stores.turns.getTurn(sessionId, changeSet.turnId) !== null),
  );
}
