import type { ModelSettings, ReasoningEffort } from '../../src-shared/chat-model';

/** Model settings as typed in the dialog: text fields, '' for "the default". */
export interface ModelSettingsDraft {
  readonly temperature: string;
  readonly maxOutputTokens: string;
  readonly reasoningEffort: ReasoningEffort | '';
}

export function modelSettingsDraft(settings: ModelSettings): ModelSettingsDraft {
  return {
    temperature: settings.temperature === undefined ? '' : String(settings.temperature),
    maxOutputTokens: settings.maxOutputTokens === undefined ? '' : String(settings.maxOutputTokens),
    reasoningEffort: settings.reasoningEffort ?? '',
  };
}

/** The settings a draft stands for, or what is wrong with it (by field), in words for the person. */
export function parseModelSettings(
  draft: ModelSettingsDraft,
): { settings: ModelSettings } | { problems: Partial<Record<'temperature' | 'maxOutputTokens', string>> } {
  const problems: Partial<Record<'temperature' | 'maxOutputTokens', string>> = {};
  const settings: { temperature?: number; maxOutputTokens?: number; reasoningEffort?: ReasoningEffort } = {};
  const temperature = draft.temperature.trim();
  if (temperature !== '') {
    const value = Number(temperature);
    if (!Number.isFinite(value) || value < 0 || value > 2)
      problems.temperature = 'Use a number from 0 to 2, such as 0.7.';
    else settings.temperature = value;
  }
  const maxOutput = draft.maxOutputTokens.trim().replace(/[,_\s]/g, '');
  if (maxOutput !== '') {
    const value = Number(maxOutput);
    if (!Number.isInteger(value) || value < 1 || value > 1_000_000)
      problems.maxOutputTokens = 'Use a whole number from 1 to 1,000,000.';
    else settings.maxOutputTokens = value;
  }
  if (draft.reasoningEffort !== '') settings.reasoningEffort = draft.reasoningEffort;
  return Object.keys(problems).length > 0 ? { problems } : { settings };
}
