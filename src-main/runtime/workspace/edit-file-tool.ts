import { z } from 'zod';
import type { AgentTool } from '../contract/agent-tool';
import { toolError } from '../contract/agent-tool';
import { lineChanges, MAX_CHANGE_BYTES, previewOfPlan, readCurrentText, type FileChangePlan } from './file-change';
import { writeConfined } from './workspace-files';
import { resolveInWorkspace } from './workspace-paths';
import {
  countOccurrences,
  parseToolInput,
  runLaterRefusalFor,
  type ChangePreview,
  type WorkspaceToolOptions,
} from './workspace-tool-support';

const inputSchema = z.strictObject({
  path: z.string().min(1).max(4096),
  search: z.string().min(1, 'must not be empty').max(MAX_CHANGE_BYTES),
  replace: z.string().max(MAX_CHANGE_BYTES),
});

async function plan(root: string, input: unknown): Promise<FileChangePlan | { message: string }> {
  const parsed = parseToolInput('edit_file', inputSchema, input);
  if (!parsed.ok) return { message: parsed.message };
  const { search, replace } = parsed.value;
  if (search === replace) return { message: 'search and replace are the same text; there is nothing to change.' };
  const target = await resolveInWorkspace(root, parsed.value.path, { mustExist: true, forWrite: true });
  if (!target.ok) return { message: target.message };
  const current = await readCurrentText(target);
  if (!current.ok) return { message: current.message };
  if (current.text === null) return { message: `"${target.relative}" is a binary file; edit_file edits text only.` };
  const text = current.text;
  const count = countOccurrences(text, search);
  if (count === 0) {
    const hint =
      text.includes('\r\n') &&
      search.includes('\n') &&
      !search.includes('\r\n') &&
      text.includes(search.replace(/\n/g, '\r\n'))
        ? ' The file uses Windows line endings (CRLF); include the \\r before each \\n.'
        : ' It must match exactly, including whitespace and indentation; read the file again to copy the current text.';
    return { message: `The search text was not found in "${target.relative}".${hint}` };
  }
  if (count > 1) {
    return {
      message: `The search text appears ${count} times in "${target.relative}"; it must appear exactly once. Include more surrounding lines so it matches one place only.`,
    };
  }
  const at = text.indexOf(search);
  // Spliced, not String.replace: `$&` and friends in the replacement stay literal.
  return { target, before: text, after: `${text.slice(0, at)}${replace}${text.slice(at + search.length)}` };
}

/** What edit_file would do with `input` in the workspace `root`: the unified diff, or why it would refuse. */
export async function previewChange(root: string, input: unknown): Promise<ChangePreview> {
  return previewOfPlan(await plan(root, input));
}

/** edit_file: replaces one exact occurrence of a text in a workspace file. */
export function createEditFileTool(options: WorkspaceToolOptions): AgentTool {
  return {
    name: 'edit_file',
    description:
      'Edits a text file in the workspace by exact search and replace: `search` must appear exactly once in the file ' +
      '(copy it from read_file output without the line numbers, with its exact whitespace), and is replaced by `replace`.',
    inputSchema: {
      type: 'object',
      properties: {
        path: { type: 'string', description: 'The file to edit, relative to the workspace.' },
        search: {
          type: 'string',
          description:
            'The exact text to replace; it must occur exactly once. Include enough surrounding lines to make it unique.',
        },
        replace: { type: 'string', description: 'The text to put in its place (may be empty to delete it).' },
      },
      required: ['path', 'search', 'replace'],
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
      return {
        output: {
          path: planned.target.relative,
          replaced: 1,
          bytes: written.bytes,
          ...lineChanges(planned.before, planned.after),
        },
        isError: false,
      };
    },
  };
}
