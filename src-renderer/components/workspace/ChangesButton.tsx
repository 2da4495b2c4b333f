import { useAppStore, useStoreApi } from '../../state/store-context';

export const changesPanelId = (sessionId: string) => `changes-${sessionId}`;

/** Opens the session's Changes panel (the files its turns changed, and reverting them). */
export function ChangesButton({ sessionId }: { sessionId: string }) {
  const store = useStoreApi();
  const open = useAppStore((state) => state.changesPanelFor === sessionId);
  return (
    <button
      type="button"
      className="button button-small button-quiet changes-button"
      aria-expanded={open}
      aria-controls={open ? changesPanelId(sessionId) : undefined}
      onClick={() => store.getState().setChangesPanel(open ? null : sessionId)}
      data-testid="changes-button"
    >
      Changes
    </button>
  );
}
