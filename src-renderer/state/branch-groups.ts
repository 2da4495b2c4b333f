/**
 * The sidebar's branch groups: a branch is listed under the session it branched from when that session
 * is listed too (a branch of a branch under its own origin); one whose origin is not listed (deleted,
 * archived, filtered out, or on a later page) stays at the top level. Order within is the list's.
 */
export interface BranchGroups {
  readonly top: readonly string[];
  readonly branchesOf: Readonly<Record<string, readonly string[]>>;
}

const NONE: Readonly<Record<string, readonly string[]>> = {};

export function groupBranches(
  listIds: readonly string[],
  branchOf: (sessionId: string) => string | null,
): BranchGroups {
  const listed = new Set(listIds);
  const branchesOf: Record<string, string[]> = {};
  const top: string[] = [];
  for (const sessionId of listIds) {
    const origin = branchOf(sessionId);
    if (origin === null || !listed.has(origin) || origin === sessionId) top.push(sessionId);
    else (branchesOf[origin] ??= []).push(sessionId);
  }
  return top.length === listIds.length ? { top: listIds, branchesOf: NONE } : { top, branchesOf };
}

/** The sessions a group's disclosure hides: its branches and theirs. */
export function branchesUnder(groups: BranchGroups, sessionId: string): string[] {
  const found: string[] = [];
  for (const branchId of groups.branchesOf[sessionId] ?? []) found.push(branchId, ...branchesUnder(groups, branchId));
  return found;
}
