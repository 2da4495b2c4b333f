import type { ChangeWriter } from '../../../src-shared/checkpoint-model';
import type { ToolOutcome, ToolSuspension } from '../contract/agent-tool';
import { resolveInWorkspace } from '../workspace/workspace-paths';

/** The tools that write one file, named in their input, and say which in their output. */
export const FILE_TOOLS = new Set(['write_file', 'edit_file']);

/**
 * The workspace-relative path a file tool is about to write (links inside the workspace resolved, as
 * the tool resolves them), or null when the tool will refuse the path.
 */
export async function pathToWrite(root: string, input: unknown): Promise<string | null> {
  const requested =
    typeof input === 'object' && input !== null && 'path' in input && typeof input.path === 'string'
      ? input.path
      : null;
  if (requested === null) return null;
  const target = await resolveInWorkspace(root, requested, { forWrite: true });
  return target.ok && target.relative !== '.' ? target.relative : null;
}

/** The file a successful write_file / edit_file wrote (its own relative path), else null. */
export function writtenPath(toolName: string, outcome: ToolOutcome | ToolSuspension): string | null {
  if (toolName !== 'write_file' && toolName !== 'edit_file') return null;
  if (!('output' in outcome) || outcome.isError) return null;
  const output = outcome.output;
  return typeof output === 'object' && output !== null && 'path' in output && typeof output.path === 'string'
    ? output.path
    : null;
}

/** Who wrote a change: a command (its text, cut at 500 characters) or a file tool. */
export function writerOf(toolName: string, input: unknown): ChangeWriter {
  if (toolName === 'run_shell') {
    const command =
      typeof input === 'object' && input !== null && 'command' in input && typeof input.command === 'string'
        ? input.command
        : '';
    return { kind: 'command', command: command.slice(0, 500) };
  }
  return { kind: 'file_tool', tool: toolName };
}
