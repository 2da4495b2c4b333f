import { useEffect, useRef, type RefObject } from 'react';
import type { InteractionRecord } from '../../src-shared/interaction-model';
import { focusComposer } from '../components/focus-targets';
import { useStoreApi } from '../state/store-context';

/**
 * When a card the person was answering settles (Submit, Skip, Decline, Allow, Deny), its buttons go
 * and focus would fall to the page: it moves on to the session's next pending card, or else to the
 * message box. Focus the person has put elsewhere meanwhile stays where it is.
 */
export function useFocusAfterAnswer(card: RefObject<HTMLElement | null>, record: InteractionRecord | undefined): void {
  const store = useStoreApi();
  const status = record?.status;
  const wasPending = useRef(status === 'pending');
  useEffect(() => {
    if (record === undefined) return;
    const settledNow = wasPending.current && record.status !== 'pending';
    wasPending.current = record.status === 'pending';
    if (!settledNow) return;
    const active = document.activeElement;
    const focusWasHere = active === null || active === document.body || card.current?.contains(active) === true;
    if (!focusWasHere) return;
    const state = store.getState();
    const next = state.interactions.pendingIds
      .map((id) => state.interactions.byId[id])
      .find(
        (other) =>
          other !== undefined && other.sessionId === record.sessionId && other.interactionId !== record.interactionId,
      );
    if (next !== undefined) state.requestInteractionFocus(next.interactionId);
    else focusComposer();
    // Only a change of status moves focus; the record's other fields do not.
  }, [status]);
}
