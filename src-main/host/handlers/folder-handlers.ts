import { homedir } from 'node:os';
import { listFolders } from '../../runtime/workspace/folder-browser';
import type { HandlerTable } from '../handler';

export const folderHandlers: HandlerTable<'workspace.folders'> = {
  'workspace.folders': (_context, input) => listFolders(input, homedir()),
};
