import type { TurnVersionOrigin } from '../../../src-shared/branch-model';
import type { FamilyMember, FamilyTurn } from '../../storage/branch-store';

export interface VersionRef {
  readonly sessionId: string;
  readonly turnId: string;
  readonly origin: TurnVersionOrigin;
  readonly createdAt: number;
}

export interface SlotVersions {
  readonly turnId: string;
  readonly index: number;
  readonly versions: readonly VersionRef[];
}

const sameTurn = (a: FamilyTurn | undefined, b: FamilyTurn | undefined) =>
  a !== undefined && b !== undefined && a.turnId === b.turnId && a.createdAt === b.createdAt;

/** Whether `member` made `turn` itself rather than copying it from the session it branched from. */
const madeBy = (member: FamilyMember, turn: FamilyTurn) =>
  member.branch === null || turn.ordinal >= member.branch.cutOrdinal;

function originOf(member: FamilyMember, turn: FamilyTurn): TurnVersionOrigin {
  return member.branch !== null && turn.ordinal === member.branch.cutOrdinal ? member.branch.mode : 'original';
}

/**
 * The versions of each of `sessionId`'s turns across its branch family (`members`, oldest first): at
 * the turn's place, every session with the same turns before it offers its own turn there; each
 * different turn is one version, opened in the session that made it (or this one for its own),
 * oldest first. Only turns with more than one version are returned.
 */
export function turnVersions(sessionId: string, members: readonly FamilyMember[]): SlotVersions[] {
  const own = members.find((member) => member.sessionId === sessionId);
  if (own === undefined || members.length < 2) return [];
  // Every other session differs from this one first at one place (or never): it offers a version only there.
  const offered = new Map<number, FamilyMember[]>();
  for (const member of members) {
    if (member === own) continue;
    let shared = 0;
    while (shared < own.turns.length && sameTurn(own.turns[shared], member.turns[shared])) shared += 1;
    if (shared === own.turns.length || member.turns[shared] === undefined) continue;
    offered.set(shared, [...(offered.get(shared) ?? []), member]);
  }
  const result: SlotVersions[] = [];
  for (const [slot, others] of [...offered.entries()].sort(([a], [b]) => a - b)) {
    const mine = own.turns[slot];
    if (mine === undefined) continue;
    const holders = members.filter((member) => sameTurn(member.turns[slot], mine));
    const maker = holders.find((member) => madeBy(member, mine)) ?? own;
    const versions: Array<VersionRef & { readonly makerRank: number }> = [
      {
        sessionId: own.sessionId,
        turnId: mine.turnId,
        origin: originOf(maker, mine),
        createdAt: mine.createdAt,
        makerRank: members.indexOf(maker),
      },
    ];
    const seen = new Set([`${mine.turnId}\n${mine.createdAt}`]);
    for (const other of others) {
      const turn = other.turns[slot];
      if (turn === undefined || seen.has(`${turn.turnId}\n${turn.createdAt}`)) continue;
      seen.add(`${turn.turnId}\n${turn.createdAt}`);
      const theirMaker = others.find((member) => sameTurn(member.turns[slot], turn) && madeBy(member, turn)) ?? other;
      versions.push({
        sessionId: theirMaker.sessionId,
        turnId: turn.turnId,
        origin: originOf(theirMaker, turn),
        createdAt: turn.createdAt,
        makerRank: members.indexOf(theirMaker),
      });
    }
    if (versions.length < 2) continue;
    versions.sort((a, b) => a.createdAt - b.createdAt || a.makerRank - b.makerRank);
    result.push({
      turnId: mine.turnId,
      index: versions.findIndex((version) => version.sessionId === own.sessionId),
      versions: versions.map(({ makerRank: _rank, ...version }) => version),
    });
  }
  return result;
}
