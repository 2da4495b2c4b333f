import { useEffect, useId, useRef, useState } from 'react';
import type { AcpSelector } from '../../src-shared/acp-model';
import { isModeSelector, modesAllowed, shownMode } from '../../src-shared/acp-modes';
import type { PermissionMode } from '../../src-shared/model';
import { useAppStore, useStoreApi } from '../state/store-context';
import '../styles/agent-choices.css';
import { ChevronDownIcon } from './icons';

/** The value a selector shows as current: a mode as Cairn's permission mode lets it stand, anything else as the agent said. */
function currentOf(selector: AcpSelector, permissionMode: PermissionMode, chosen: Readonly<Record<string, string>>) {
  return isModeSelector(selector) ? shownMode(selector, permissionMode, chosen[selector.id] ?? null) : selector.current;
}

function nameOf(selector: AcpSelector, value: string): string {
  return selector.choices.find((choice) => choice.value === value)?.name ?? value;
}

/**
 * An ACP session's own settings in its header: the agent's mode and config options (model, thought
 * level, …) with its own choices and the current one. A face names the mode and the model; it opens a
 * panel with one list per setting. Modes that would act without Cairn's approval are listed only as
 * "Full mode only" outside Full, and the mode shown is the one Cairn's permission mode lets stand.
 */
export function AgentChoices({ sessionId }: { sessionId: string }) {
  const store = useStoreApi();
  const offers = useAppStore((state) => state.acpOffers[sessionId]);
  const permissionMode = useAppStore((state) => state.sessions.byId[sessionId]?.permissionMode ?? 'ask');
  const archived = useAppStore((state) => state.sessions.byId[sessionId]?.archived ?? false);
  const agentName = useAppStore((state) => {
    const agent = state.acpAgents[sessionId];
    return agent === undefined ? 'The agent' : (agent.title ?? agent.name);
  });
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const root = useRef<HTMLDivElement>(null);
  const trigger = useRef<HTMLButtonElement>(null);
  const panelId = useId();

  useEffect(() => {
    if (!open) return;
    const away = (event: PointerEvent) => {
      if (root.current !== null && !root.current.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', away);
    return () => document.removeEventListener('pointerdown', away);
  }, [open]);

  if (offers === undefined || offers.selectors.length === 0) return null;
  const { selectors, chosen } = offers;
  const faceParts = selectors
    .filter((selector) => isModeSelector(selector) || selector.category === 'model')
    .map((selector) => nameOf(selector, currentOf(selector, permissionMode, chosen)));
  const face = faceParts.join(' · ');

  const choose = (selector: AcpSelector, value: string) => {
    setBusy(selector.id);
    setNotice(null);
    void store
      .getState()
      .chooseAcpOption(sessionId, selector.id, value)
      .then((refused) => {
        setBusy(null);
        setNotice(refused);
      });
  };

  return (
    <div
      ref={root}
      className="agent-choices"
      data-testid="agent-choices"
      onKeyDown={(event) => {
        if (event.key !== 'Escape' || !open) return;
        event.stopPropagation();
        setOpen(false);
        trigger.current?.focus();
      }}
    >
      <button
        ref={trigger}
        type="button"
        className="agent-choices-face"
        aria-expanded={open}
        aria-controls={panelId}
        aria-label={`${agentName}’s settings: ${face || 'its options'}`}
        title={`${agentName}’s own settings for this session`}
        disabled={archived}
        onClick={() => setOpen(!open)}
      >
        <span className="agent-choices-text">
          {faceParts[0] ?? 'Agent settings'}
          {/* On a narrow header only the first choice (the mode) shows; the button's label names them all. */}
          {faceParts.length > 1 ? (
            <span className="agent-choices-more"> · {faceParts.slice(1).join(' · ')}</span>
          ) : null}
        </span>
        <ChevronDownIcon />
      </button>
      {open ? (
        <div className="agent-choices-panel" id={panelId} role="group" aria-label={`${agentName}’s settings`}>
          <p className="agent-choices-heading">{agentName}’s own settings for this session</p>
          {selectors.map((selector) => (
            <SelectorField
              key={selector.id}
              selector={selector}
              current={currentOf(selector, permissionMode, chosen)}
              permissionMode={permissionMode}
              busy={busy === selector.id}
              onChoose={(value) => choose(selector, value)}
            />
          ))}
          {notice === null ? null : (
            <p className="form-notice tone-error" role="alert">
              {notice}
            </p>
          )}
        </div>
      ) : null}
    </div>
  );
}

function SelectorField({
  selector,
  current,
  permissionMode,
  busy,
  onChoose,
}: {
  selector: AcpSelector;
  current: string;
  permissionMode: PermissionMode;
  busy: boolean;
  onChoose: (value: string) => void;
}) {
  const id = useId();
  const values = selector.choices.map((choice) => choice.value);
  const allowed = isModeSelector(selector) ? modesAllowed(values, permissionMode) : values;
  const held = values.length - allowed.length;
  return (
    <div className="agent-choices-field">
      <label htmlFor={id}>{selector.name}</label>
      <select
        id={id}
        className="input select"
        value={current}
        disabled={busy}
        onChange={(event) => onChoose(event.target.value)}
      >
        {selector.choices.map((choice) => (
          <option
            key={choice.value}
            value={choice.value}
            disabled={!allowed.includes(choice.value)}
            title={choice.description ?? undefined}
          >
            {allowed.includes(choice.value) ? choice.name : `${choice.name} — Full mode only`}
          </option>
        ))}
      </select>
      {held > 0 ? (
        <p className="agent-choices-note">
          {permissionMode === 'explore'
            ? 'Explore keeps the agent in a mode that changes nothing.'
            : 'Modes where the agent acts without asking you are offered in Full mode only.'}
        </p>
      ) : null}
    </div>
  );
}
