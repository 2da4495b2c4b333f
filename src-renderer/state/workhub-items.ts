import type { TranscriptItem } from '../../src-shared/model';

/** The WorkHub's own transcript items, told apart from the rest (every transcript row asks, so this stays small). */

export const PROPOSAL_ITEM_KIND = 'proposal';

/** Whether a transcript item is a WorkHub proposal (checked by value, so it works whatever the kind union says). */
export function isProposalItem(item: TranscriptItem): boolean {
  return (item.kind as string) === PROPOSAL_ITEM_KIND;
}

/** Whether an item is the WorkHub's record of a decision (its proposal card shows it; it has no line of its own). */
export function isDecisionItem(item: TranscriptItem): boolean {
  return item.kind === 'notice' && item.data !== null && item.data.workhubDecision !== undefined;
}
