import { fail, ok } from '../../../src-shared/errors';
import type { HandlerTable } from '../handler';

export const desktopHandlers: HandlerTable<'workspace.pickFolder'> = {
  'workspace.pickFolder': async ({ desktop }) =>
    desktop === null
      ? fail('operation_unavailable', 'There is no folder picker in the browser; type the folder path instead.')
      : ok({ path: await desktop.pickFolder() }),
};
