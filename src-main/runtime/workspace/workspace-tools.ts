import type { PermissionMode } from '../../../src-shared/model';
import type { AgentTool } from '../contract/agent-tool';
import { createEditFileTool } from './edit-file-tool';
import { createGlobTool } from './glob-tool';
import { createGrepTool } from './grep-tool';
import { createListFilesTool } from './list-files-tool';
import { createReadFileTool } from './read-file-tool';
import { createRunShellTool, type RunShellToolOptions } from './run-shell-tool';
import { createWriteFileTool } from './write-file-tool';

export interface WorkspaceToolsOptions {
  /** The session's workspace folder. */
  readonly root: string;
  /** The session's permission mode now (write_file and edit_file check it before a file that makes code run later). */
  readonly modeOf?: (sessionId: string) => PermissionMode;
  /** The shell runner and its callbacks; without it run_shell is not offered. */
  readonly shell?: Omit<RunShellToolOptions, 'root'>;
}

/**
 * The workspace tools of one session, bound to its folder: read_file, list_files, glob, grep (read
 * only), then write_file, edit_file and run_shell (which change things, and offer `preview`).
 */
export function createWorkspaceTools(options: WorkspaceToolsOptions): AgentTool[] {
  const { root, modeOf } = options;
  const writing = modeOf === undefined ? { root } : { root, modeOf };
  return [
    createReadFileTool({ root }),
    createListFilesTool({ root }),
    createGlobTool({ root }),
    createGrepTool({ root }),
    createWriteFileTool(writing),
    createEditFileTool(writing),
    ...(options.shell === undefined ? [] : [createRunShellTool({ root, ...options.shell })]),
  ];
}
