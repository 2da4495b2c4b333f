import { z } from 'zod';
import type { ModelSettings } from '../../../src-shared/chat-model';
import { modelSettingsInput } from '../../../src-shared/operations/chat-operations';
import type { ChatPreferencesStore } from '../../storage/chat-preferences-store';
import type { SettingsStore } from '../../storage/settings-store';

const GLOBAL_INSTRUCTIONS_KEY = 'chat.instructions';

/** What a run of a session asks of its model beyond the conversation. */
export interface RunPreferences {
  /** Instructions to add to the system prompt, global ones first; empty when there are none. */
  readonly instructions: readonly { readonly scope: 'global' | 'session'; readonly text: string }[];
  /** The session's overrides over its connection's defaults. */
  readonly modelSettings: ModelSettings;
}

/** Reads stored model settings, keeping only what is still valid (a hand-edited row is not fatal). */
export function storedModelSettings(value: unknown): ModelSettings {
  const parsed = modelSettingsInput.safeParse(value);
  if (parsed.success) return withoutUndefined(parsed.data);
  const loose = z.record(z.string(), z.unknown()).safeParse(value);
  if (!loose.success) return {};
  const kept: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(modelSettingsInput.shape)) {
    if (field.safeParse(loose.data[key]).success && loose.data[key] !== undefined) kept[key] = loose.data[key];
  }
  return kept as ModelSettings;
}

function withoutUndefined(settings: ModelSettings): ModelSettings {
  return Object.fromEntries(Object.entries(settings).filter(([, value]) => value !== undefined)) as ModelSettings;
}

/** Instructions (global and per session) and model settings (per connection and per session). */
export class ChatPreferences {
  constructor(
    private readonly deps: { readonly preferences: ChatPreferencesStore; readonly settings: SettingsStore },
  ) {}

  globalInstructions(): string {
    return this.deps.settings.get<string>(GLOBAL_INSTRUCTIONS_KEY) ?? '';
  }

  setGlobalInstructions(instructions: string): void {
    this.deps.settings.set(GLOBAL_INSTRUCTIONS_KEY, instructions.trim());
  }

  session(sessionId: string): { instructions: string; modelSettings: ModelSettings } {
    const stored = this.deps.preferences.session(sessionId);
    return stored === null
      ? { instructions: '', modelSettings: {} }
      : { instructions: stored.instructions, modelSettings: storedModelSettings(stored.modelSettings) };
  }

  setSession(sessionId: string, change: { instructions?: string; modelSettings?: ModelSettings }, now: number): void {
    const current = this.session(sessionId);
    this.deps.preferences.setSession(
      sessionId,
      {
        instructions: change.instructions === undefined ? current.instructions : change.instructions.trim(),
        modelSettings:
          change.modelSettings === undefined ? current.modelSettings : withoutUndefined(change.modelSettings),
      },
      now,
    );
  }

  connection(connectionId: string): ModelSettings {
    return storedModelSettings(this.deps.preferences.connectionModelSettings(connectionId) ?? {});
  }

  setConnection(connectionId: string, modelSettings: ModelSettings, now: number): void {
    this.deps.preferences.setConnectionModelSettings(connectionId, withoutUndefined(modelSettings), now);
  }

  /** What a run of this session on this connection sends: instructions, and the session's settings over the connection's. */
  forRun(sessionId: string, connectionId: string): RunPreferences {
    const session = this.session(sessionId);
    const global = this.globalInstructions();
    return {
      instructions: [
        ...(global === '' ? [] : [{ scope: 'global' as const, text: global }]),
        ...(session.instructions === '' ? [] : [{ scope: 'session' as const, text: session.instructions }]),
      ],
      modelSettings: { ...this.connection(connectionId), ...session.modelSettings },
    };
  }
}

/** The system prompt with the person's instructions after it, marked as theirs. */
export function systemPromptWith(base: string, instructions: RunPreferences['instructions']): string {
  if (instructions.length === 0) return base;
  const blocks = instructions.map(({ scope, text }) =>
    scope === 'global'
      ? `Instructions from the person for every session:\n${text}`
      : `Instructions from the person for this session:\n${text}`,
  );
  return `${base}\n\n${blocks.join('\n\n')}`;
}
