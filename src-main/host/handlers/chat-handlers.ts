import { fail, ok } from '../../../src-shared/errors';
import type { HandlerTable } from '../handler';

export const chatHandlers: HandlerTable<
  | 'search.messages'
  | 'session.preferences'
  | 'session.setPreferences'
  | 'settings.instructions'
  | 'settings.setInstructions'
  | 'connection.modelSettings'
  | 'connection.setModelSettings'
  | 'session.export'
  | 'session.saveExport'
> = {
  'search.messages': ({ runtime }, input) => runtime.chat.searchMessages(input),
  'session.preferences': ({ runtime }, input) => runtime.chat.sessionPreferences(input.sessionId),
  'session.setPreferences': ({ runtime }, input) => runtime.chat.setSessionPreferences(input),
  'settings.instructions': ({ runtime }) => ok({ instructions: runtime.chat.preferences.globalInstructions() }),
  'settings.setInstructions': ({ runtime }, input) => {
    runtime.chat.preferences.setGlobalInstructions(input.instructions);
    return ok({ instructions: runtime.chat.preferences.globalInstructions() });
  },
  'connection.modelSettings': ({ runtime }, input) => runtime.chat.connectionModelSettings(input.connectionId),
  'connection.setModelSettings': ({ runtime }, input) =>
    runtime.chat.setConnectionModelSettings(input.connectionId, input.modelSettings),
  'session.export': ({ runtime }, input) => runtime.chat.exportSession(input.sessionId, input.format),
  'session.saveExport': async ({ runtime, desktop }, input) => {
    if (desktop === null)
      return fail(
        'operation_unavailable',
        'The browser downloads exports; saving through a dialog is for the desktop app.',
      );
    const made = runtime.chat.exportSession(input.sessionId, input.format);
    if (!made.ok) return made;
    return ok({ path: await desktop.saveFile(made.result.fileName, made.result.content) });
  },
};
