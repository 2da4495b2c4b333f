import { useRef, useState, type KeyboardEvent } from 'react';
import type { PermissionMode } from '../../../src-shared/model';
import { PERMISSION_MODES } from '../../../src-shared/model';
import { onDevicePage } from '../../platform/device-page';
import { useAppStore, useStoreApi } from '../../state/store-context';
import { ShieldIcon } from '../icons';

export const MODE_TEXT: Readonly<Record<PermissionMode, { label: string; hint: string; detail: string }>> = {
  explore: {
    label: 'Explore',
    hint: 'read-only',
    detail: 'The agent can read, list and search files; it is offered no tool that changes anything.',
  },
  ask: {
    label: 'Ask',
    hint: 'asks before changes',
    detail: 'The agent asks before each file change or command, showing the diff or the exact command.',
  },
  auto: {
    label: 'Auto',
    hint: 'runs in the sandbox',
    detail:
      'The agent changes files and runs commands without asking, inside the sandbox: writes only in the workspace, network only to hosts you allow, secrets unreadable.',
  },
  full: { label: 'Full', hint: 'runs everything', detail: 'The agent changes files and runs commands without asking.' },
};

/**
 * The session's permission mode as a segmented control (a radio group): changeable at any time, even
 * mid-turn. Full asks for confirmation first (FullModeDialog); on a paired device it is left to the
 * desktop (docs/remote.md), and says so.
 */
export function PermissionModeControl({ sessionId }: { sessionId: string }) {
  const store = useStoreApi();
  const mode = useAppStore((state) => state.sessions.byId[sessionId]?.permissionMode ?? 'ask');
  const changing = useAppStore((state) => state.modeChanging[sessionId]);
  const archived = useAppStore((state) => state.sessions.byId[sessionId]?.archived ?? false);
  const refs = useRef<Partial<Record<PermissionMode, HTMLButtonElement | null>>>({});
  const shown = changing ?? mode;
  const [onDevice] = useState(onDevicePage);
  const offered = PERMISSION_MODES.filter((option) => !onDevice || option !== 'full' || option === shown);

  const choose = (next: PermissionMode) => store.getState().choosePermissionMode(sessionId, next);
  const onKeyDown = (event: KeyboardEvent) => {
    const step =
      event.key === 'ArrowRight' || event.key === 'ArrowDown'
        ? 1
        : event.key === 'ArrowLeft' || event.key === 'ArrowUp'
          ? -1
          : 0;
    if (step === 0) return;
    event.preventDefault();
    const index = offered.indexOf(shown);
    const next = offered[(index + step + offered.length) % offered.length]!;
    choose(next);
    refs.current[next]?.focus();
  };

  return (
    <div
      className="mode-control"
      role="radiogroup"
      aria-label="Permission mode"
      data-testid="permission-mode"
      data-mode={mode}
      aria-busy={changing !== undefined}
      onKeyDown={onKeyDown}
    >
      {PERMISSION_MODES.map((option) => {
        const text = MODE_TEXT[option];
        const checked = option === shown;
        const desktopOnly = !offered.includes(option);
        return (
          <button
            key={option}
            ref={(element) => {
              refs.current[option] = element;
            }}
            type="button"
            role="radio"
            aria-checked={checked}
            tabIndex={checked ? 0 : -1}
            disabled={archived || desktopOnly}
            className={`mode-option mode-${option}${checked ? ' is-checked' : ''}`}
            title={desktopOnly ? `${text.label}: only on the desktop` : text.detail}
            onClick={() => choose(option)}
          >
            <span className="mode-label">
              {option === 'auto' ? <ShieldIcon /> : null}
              {text.label}
            </span>
            <span className="mode-hint">{desktopOnly ? 'only on the desktop' : text.hint}</span>
          </button>
        );
      })}
    </div>
  );
}
