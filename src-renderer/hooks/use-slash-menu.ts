import { useEffect, useId, useState, type KeyboardEvent } from 'react';
import { OFFLINE_DEMO_CONNECTION_ID } from '../../src-shared/connection-model';
import type { McpPromptInfo } from '../../src-shared/mcp-model';
import { useDirectives } from '../components/directives';
import { focusComposer } from '../components/focus-targets';
import { useMcpServersEnabled } from './use-mcp-servers-enabled';
import {
  draftAfterChoosing,
  hasEntries,
  isKnownCommand,
  skillInvocation,
  slashMenuEntries,
  slashWord,
  type SlashMenuEntries,
  type SlashOption,
  type SlashPrompts,
} from '../components/slash-menu-model';
import { useAppStore, useStoreApi } from '../state/store-context';

export interface SlashMenuState {
  /** Whether the menu shows (its choices, or a chosen prompt's arguments). */
  readonly visible: boolean;
  readonly entries: SlashMenuEntries;
  /** The ACP agent's name for its commands' heading, when the session runs one that named itself. */
  readonly agentName: string | null;
  /** Index in `entries.options` of the active choice (what Enter or Tab takes). */
  readonly active: number;
  readonly listId: string;
  optionId(index: number): string;
  setActive(index: number): void;
  choose(option: SlashOption): void;
  /** The MCP prompt whose arguments are being asked, if any. */
  readonly chosenPrompt: McpPromptInfo | null;
  closePromptForm(): void;
  insertPrompt(prompt: McpPromptInfo, values: Readonly<Record<string, string>>): void;
  readonly promptBusy: boolean;
  readonly promptNotice: string | null;
  /** A lone "/word" that is nothing known, waiting for the person to say whether to send it as text. */
  readonly unknownCommand: string | null;
  confirmUnknown(): void;
  cancelUnknown(): void;
  /** The message box's keys: true when the menu (or sending) took the key. */
  onKey(event: KeyboardEvent<HTMLTextAreaElement>): boolean;
  /** Sends the draft: with its skill when it names one, after asking when it is an unknown "/word", else as text. */
  send(): void;
}

/** Whether the session runs the Offline demo agent, the only one that follows its directives. */
function useOffersDirectives(sessionId: string): boolean {
  return useAppStore((state) => state.sessions.byId[sessionId]?.connectionId === OFFLINE_DEMO_CONNECTION_ID);
}

/**
 * The composer's / menu as a combobox: the first match is active, ↑/↓ move, Enter or Tab choose, Esc
 * closes it (and only it). Choosing a skill leaves "/skill " for what it should work on; Enter then
 * starts the turn with the skill loaded and the person's words as the message. `draft` is the text
 * the composer shows (use-composer-draft.ts).
 */
export function useSlashMenu(sessionId: string, draft: string): SlashMenuState {
  const store = useStoreApi();
  const skills = useAppStore((state) => state.skillMenus[sessionId]);
  const catalog = useAppStore((state) => state.mcpCatalogs[sessionId]);
  const agentCommands = useAppStore((state) => state.acpOffers[sessionId]?.commands);
  const agentName = useAppStore((state) => {
    const agent = state.acpAgents[sessionId];
    return agent === undefined ? null : (agent.title ?? agent.name);
  });
  const offersDirectives = useOffersDirectives(sessionId);
  const directives = useDirectives();
  const word = slashWord(draft);
  // Skills are listed as soon as the draft starts with "/", so "/skill what" typed at once still finds its skill.
  const asking = draft.startsWith('/');
  const mcp = useMcpServersEnabled(asking);
  const [activeFor, setActiveFor] = useState<{ readonly word: string | null; readonly index: number }>({
    word: null,
    index: 0,
  });
  const [dismissed, setDismissed] = useState<string | null>(null);
  const [chosenPrompt, setChosenPrompt] = useState<McpPromptInfo | null>(null);
  const [promptBusy, setPromptBusy] = useState(false);
  const [promptNotice, setPromptNotice] = useState<string | null>(null);
  const [unknownCommand, setUnknownCommand] = useState<string | null>(null);
  const baseId = useId();

  useEffect(() => {
    if (asking) void store.getState().loadSkills(sessionId);
  }, [asking, sessionId, store]);
  useEffect(() => {
    if (asking && mcp) void store.getState().loadMcpCatalog(sessionId);
  }, [asking, mcp, sessionId, store]);

  const prompts: SlashPrompts = !mcp ? { state: 'off' } : catalog === undefined ? { state: 'loading' } : catalog;
  const entries = slashMenuEntries(word ?? '', skills, prompts, agentCommands, offersDirectives ? directives : []);
  const visible = chosenPrompt !== null || (word !== null && dismissed !== draft && hasEntries(entries));
  const last = entries.options.length - 1;
  const active = activeFor.word === word ? Math.max(0, Math.min(activeFor.index, last)) : 0;
  // A closed menu forgets its highlight: reopened, it starts again on the first match.
  if (!visible && activeFor.word !== null) setActiveFor({ word: null, index: 0 });
  const actions = store.getState();

  const insertPrompt = (prompt: McpPromptInfo, values: Readonly<Record<string, string>>) => {
    const missing = prompt.arguments.find(
      (argument) => argument.required && (values[argument.name] ?? '').trim() === '',
    );
    if (missing !== undefined) return setPromptNotice(`Fill in ${missing.name}.`);
    setPromptBusy(true);
    setPromptNotice(null);
    void actions.insertMcpPrompt(sessionId, prompt, values, 'replace').then((outcome) => {
      setPromptBusy(false);
      if (!outcome.ok) return setPromptNotice(outcome.message);
      setChosenPrompt(null);
      focusComposer();
    });
  };

  const choose = (option: SlashOption) => {
    setPromptNotice(null);
    const next = draftAfterChoosing(option);
    if (next !== null) {
      actions.setDraft(sessionId, next);
      focusComposer();
    } else if (option.kind === 'prompt') {
      if (option.prompt.arguments.length > 0) setChosenPrompt(option.prompt);
      else insertPrompt(option.prompt, {});
    }
  };

  const send = () => {
    setUnknownCommand(null);
    const invocation = skillInvocation(draft, skills?.invocable);
    if (invocation !== null) return void actions.startTurnWithSkill(sessionId, invocation.skill, draft.trim());
    // A lone "/word" that names nothing would reach the agent as a message (a paid turn): ask first.
    if (slashWord(draft.trim()) !== null && prompts.state !== 'loading' && !isKnownCommand(draft.trim(), entries))
      return setUnknownCommand(draft.trim());
    void actions.sendDraft(sessionId);
  };

  const onKey = (event: KeyboardEvent<HTMLTextAreaElement>): boolean => {
    if (event.nativeEvent.isComposing) return false;
    const enter = event.key === 'Enter' && !event.shiftKey;
    if (unknownCommand !== null) {
      if (enter || event.key === 'Escape') {
        event.preventDefault();
        if (enter) {
          setUnknownCommand(null);
          void actions.sendDraft(sessionId);
        } else setUnknownCommand(null);
        return true;
      }
      setUnknownCommand(null);
    }
    const option = visible ? entries.options[active] : undefined;
    if (visible && event.key === 'Escape') {
      event.preventDefault();
      setDismissed(draft);
      setChosenPrompt(null);
      return true;
    }
    if (visible && (event.key === 'ArrowDown' || event.key === 'ArrowUp') && last >= 0) {
      event.preventDefault();
      const next = event.key === 'ArrowDown' ? (active >= last ? 0 : active + 1) : active <= 0 ? last : active - 1;
      setActiveFor({ word, index: next });
      return true;
    }
    if (option !== undefined && event.key === 'Tab' && !event.shiftKey) {
      event.preventDefault();
      choose(option);
      return true;
    }
    // A touch screen's keyboard has no Shift+Enter: there Enter starts a new line, and Send sends.
    if (!enter || (option === undefined && window.matchMedia?.('(pointer: coarse)').matches)) return false;
    event.preventDefault();
    // Enter on what is already written in full ("/hold") sends it; otherwise it takes the active choice.
    if (option !== undefined && draftAfterChoosing(option) !== draft) choose(option);
    else send();
    return true;
  };

  return {
    visible,
    entries,
    agentName,
    active,
    listId: `${baseId}-slash-list`,
    optionId: (index) => `${baseId}-slash-${index}`,
    setActive: (index) => setActiveFor({ word, index }),
    choose,
    chosenPrompt,
    closePromptForm: () => {
      setChosenPrompt(null);
      focusComposer();
    },
    insertPrompt,
    promptBusy,
    promptNotice,
    unknownCommand,
    confirmUnknown: () => {
      setUnknownCommand(null);
      void actions.sendDraft(sessionId);
    },
    cancelUnknown: () => {
      setUnknownCommand(null);
      focusComposer();
    },
    onKey,
    send,
  };
}
