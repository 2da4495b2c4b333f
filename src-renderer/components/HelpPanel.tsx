import { useAppStore, useStoreApi } from '../state/store-context';
import { Dialog } from './Dialog';
import { CloseIcon } from './icons';
import { FOCUS_COMPOSER_KEY } from './focus-targets';
import { TOGGLE_SIDEBAR_KEY } from '../state/sidebar-layout';
import { newSessionLabel, shortcutLabel } from './shortcut-label';
import { DirectiveList } from './DirectiveList';

/** The keyboard shortcuts, and the offline demo agent's directives. */
export function HelpPanel() {
  const store = useStoreApi();
  const open = useAppStore((state) => state.helpOpen);
  if (!open) return null;
  const close = () => store.getState().setHelpOpen(false);
  const shortcuts: ReadonlyArray<readonly [string, string]> = [
    [newSessionLabel(), 'New session'],
    [shortcutLabel('K'), 'Search sessions'],
    [shortcutLabel(`Shift+${FOCUS_COMPOSER_KEY}`), 'Go to the message box'],
    [shortcutLabel(`Shift+${TOGGLE_SIDEBAR_KEY}`), 'Show or hide the sidebar'],
    ['↑ ↓ in the session list', 'Move between sessions (→ reaches Rename, Archive, Delete)'],
    ['Enter', 'Send the message'],
    ['Shift+Enter', 'New line in the message'],
    ['Esc', 'Stop the running turn, or close what is open'],
    [shortcutLabel(','), 'Settings'],
    ['? or Ctrl+/', 'Show this help'],
    ['Double-click a title', 'Rename a session'],
  ];

  return (
    <Dialog labelledBy="help-title" onClose={close} className="help-panel">
      <div className="dialog-header">
        <h2 id="help-title">Keyboard shortcuts</h2>
        <button type="button" className="icon-button" aria-label="Close" onClick={close}>
          <CloseIcon />
        </button>
      </div>
      <dl className="shortcut-list">
        {shortcuts.map(([keys, what]) => (
          <div key={keys} className="shortcut">
            <dt>
              <kbd>{keys}</kbd>
            </dt>
            <dd>{what}</dd>
          </div>
        ))}
      </dl>
      <h3>The offline demo agent</h3>
      <p className="help-note">
        The Offline demo connection runs a scripted agent that needs no API key. It follows directives:
      </p>
      <DirectiveList />
    </Dialog>
  );
}
