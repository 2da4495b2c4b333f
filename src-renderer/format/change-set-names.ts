import type { ListedChangeSet } from '../../src-shared/checkpoint-model';

/**
 * What each entry of the Changes panel is, so it is named for what it did: a turn's changes, a
 * rewind, a revert of a turn, the undo of a revert or a rewind (a revert of one), or a redo (a revert
 * of an undo). All but turns and rewinds are recorded as reverts; the kind comes from what each reverts.
 */
export type ChangeSetKind = 'turn' | 'rewind' | 'revert' | 'undo' | 'redo';

/** What naming an entry reads: which files later changes put back (`undone`) is judged by the host, which sees them all. */
type Named = Pick<
  ListedChangeSet,
  'changeSetId' | 'origin' | 'revertsChangeSetId' | 'status' | 'fileCount' | 'undone' | 'turnText'
>;

export interface ChangeSetDescription {
  readonly kind: ChangeSetKind;
  /** How the entry is referred to, e.g. `the revert of “fix the title”`. */
  readonly name: string;
  /** The entry's heading, e.g. `Undo of the revert of “fix the title”`. */
  readonly title: string;
  /** The button that reverts the whole entry, or null when it offers none (an undo, or an entry already reverted or undone). */
  readonly revertLabel: string | null;
  /** Every file of the entry was put back by a later revert (a turn) or undo: it offers no Revert or Undo again. */
  readonly undone: boolean;
  /** Whether a later revert or undo put this file back (it offers no Revert file). */
  readonly fileUndone: (path: string) => boolean;
}

/** The turn's message, short: its first line, cut at 60 characters. */
export function turnLabel(text: string | null): string {
  const line = (text ?? 'a removed turn').split('\n')[0] ?? '';
  return line.length > 60 ? `${line.slice(0, 60)}…` : line;
}

/** Each change set's kind, title and what it offers, by id; an entry is judged with the whole list (what reverts it, what it reverts). */
export function describeChangeSets(changeSets: readonly Named[]): Map<string, ChangeSetDescription> {
  const byId = new Map(changeSets.map((changeSet) => [changeSet.changeSetId, changeSet]));
  const targetOf = (changeSet: Named | undefined) =>
    changeSet?.revertsChangeSetId == null ? undefined : byId.get(changeSet.revertsChangeSetId);
  const kinds = new Map<string, ChangeSetKind>();
  const kindOf = (changeSet: Named, depth = 0): ChangeSetKind => {
    const known = kinds.get(changeSet.changeSetId);
    if (known !== undefined) return known;
    const target = changeSet.origin === 'revert' ? targetOf(changeSet) : undefined;
    // A revert whose target is gone (or a chain too deep to follow) is named a revert.
    const targetKind = target === undefined || depth > 50 ? 'turn' : kindOf(target, depth + 1);
    const kind: ChangeSetKind =
      changeSet.origin !== 'revert'
        ? changeSet.origin
        : targetKind === 'turn'
          ? 'revert'
          : targetKind === 'undo'
            ? 'redo'
            : 'undo';
    kinds.set(changeSet.changeSetId, kind);
    return kind;
  };
  /** How an entry is referred to: `the revert of “…”`; an undo's and a redo's name what they undid or redid. */
  const nameOf = (changeSet: Named | undefined, depth = 0): string => {
    if (changeSet === undefined || depth > 50) return 'an earlier change';
    const turn = `“${turnLabel(changeSet.turnText)}”`;
    switch (kindOf(changeSet)) {
      case 'turn':
        return `turn ${turn}`;
      case 'rewind':
        return `the rewind to before ${turn}`;
      case 'revert':
        return `the revert of ${turn}`;
      case 'undo':
        return `the undo of ${nameOf(targetOf(changeSet), depth + 1)}`;
      case 'redo':
        return `the redo of ${nameOf(targetOf(targetOf(changeSet)), depth + 1)}`;
    }
  };
  const described = new Map<string, ChangeSetDescription>();
  for (const changeSet of changeSets) {
    const kind = kindOf(changeSet);
    const name = nameOf(changeSet);
    const undone = changeSet.undone === 'all' && changeSet.fileCount > 0;
    const undonePaths = new Set(changeSet.undone === 'all' ? [] : changeSet.undone);
    const fileUndone = (path: string) => undone || undonePaths.has(path);
    const turn = `“${turnLabel(changeSet.turnText)}”`;
    const title =
      kind === 'turn'
        ? `Turn ${turn}`
        : kind === 'rewind'
          ? `Rewind to before ${turn}`
          : kind === 'revert'
            ? `Revert of ${turn}`
            : kind === 'undo'
              ? `Undo of ${nameOf(targetOf(changeSet))}`
              : `Redo of ${nameOf(targetOf(targetOf(changeSet)))}`;
    const revertLabel = undone || kind === 'undo' ? null : REVERT_LABELS[kind];
    described.set(changeSet.changeSetId, { kind, name, title, revertLabel, undone, fileUndone });
  }
  return described;
}

const REVERT_LABELS: Record<Exclude<ChangeSetKind, 'undo'>, string> = {
  turn: 'Revert this turn',
  rewind: 'Undo this rewind',
  revert: 'Undo this revert',
  redo: 'Undo this redo',
};

/** The notice after reverting `target` (or one of its files): an undo says what it undid; a revert of a turn, how many files went back. */
export function revertNotice(target: ChangeSetDescription | undefined, files: number): string {
  const count = fileCount(files);
  return target === undefined || target.kind === 'turn'
    ? `Reverted ${count}.`
    : `Undid ${target.name}: ${count} put back.`;
}

/** What an entry's heading says after its title: how many files (a reverted turn's, or an undone entry's, saying so), or why there are none to show. */
export function changeSetCount(
  changeSet: Pick<Named, 'status' | 'fileCount'>,
  described: ChangeSetDescription | undefined,
): string {
  if (changeSet.status === 'absent') return 'no checkpoint';
  if (changeSet.status !== 'complete') return 'recording…';
  if (changeSet.fileCount === 0) return 'no file changed';
  const files = fileCount(changeSet.fileCount);
  if (described?.undone !== true) return files;
  return described.kind === 'turn' ? `${files}, reverted` : `${files}, undone`;
}

/** `1 file`, `1,000 files`. */
export function fileCount(count: number): string {
  return count === 1 ? '1 file' : `${count.toLocaleString('en-US')} files`;
}

/** Under an entry that changed nothing (a turn whose writes failed): what happened. */
export const NOTHING_CHANGED_NOTE =
  'The turn’s file tools changed no file: each write failed or left the file as it was, so there is nothing to revert.';
