import { z } from 'zod';
import type { AgentTool } from '../contract/agent-tool';
import { toolError } from '../contract/agent-tool';
import {
  lineChanges,
  lineCount,
  MAX_CHANGE_BYTES,
  previewOfPlan,
  readCurrentText,
  type FileChangePlan,
} from './file-change';
import { writeConfined } from './workspace-files';
import { resolveInWorkspace } from './workspace-paths';
import {
  parseToolInput,
  runLaterRefusalFor,
  type ChangePreview,
  type WorkspaceToolOptions,
} from './workspace-tool-support';

const inputSchema = z.strictObject({
  path: z.string().min(1).max(4096),
  content: z.string().max(MAX_CHANGE_BYTES),
});

/** The planned write; `binaryBefore` when the file it replaces is binary (its lines are not counted). */
async function plan(
  root: string,
  input: unknown,
): Promise<(FileChangePlan & { binaryBefore: boolean }) | { message: string }> {
  const parsed = parseToolInput('write_file', inputSchema, input);
  if (!parsed.ok) return { message: parsed.message };
  const target = await resolveInWorkspace(root, parsed.value.path, { forWrite: true });
  if (!target.ok) return { message: target.message };
  const current = await readCurrentText(target);
  if (!current.ok) return { message: current.message };
  const before = current.binaryBytes === null ? current.text : `[binary file, ${current.binaryBytes} bytes]\n`;
  return { target, before, after: parsed.value.content, binaryBefore: current.binaryBytes !== null };
}

/** What write_file would do with `input` in the workspace `root`: the unified diff, or why it would refuse. */
export async function previewChange(root: string, input: unknown): Promise<ChangePreview> {
  return previewOfPlan(await plan(root, input));
}

/** write_file: creates or replaces a whole file in the workspace (atomically, through a temp file). */
export function createWriteFileTool(options: WorkspaceToolOptions): AgentTool {
  return {
    name: 'write_file',
    description:
      'Creates a file in the workspace, or replaces its whole content, creating missing folders. ' +
      'To change part of an existing file, prefer edit_file. The path is relative to the workspace.',
    inputSchema: {
      type: 'object',
      properties: {
        path: { type: 'string', description: 'The file to write, relative to the workspace.' },
        content: { type: 'string', description: 'The complete new content of the file.' },
      },
      required: ['path', 'content'],
      additionalProperties: false,
    },
    readOnly: false,
    preview: (input) => previewChange(options.root, input),
    async execute(input, context) {
      const planned = await plan(options.root, input);
      if ('message' in planned) return toolError(planned.message);
      const refusal = await runLaterRefusalFor(options, planned.target, context);
      if (refusal !== null) return toolError(refusal);
      const written = await writeConfined(planned.target, planned.after);
      if (!written.ok) return toolError(written.message);
      const counts = planned.binaryBefore ? null : lineChanges(planned.before, planned.after);
      return {
        output: {
          path: planned.target.relative,
          created: written.created,
          bytes: written.bytes,
          lines: lineCount(planned.after),
          ...counts,
        },
        isError: false,
      };
    },
  };
}
