import type { FileHandle } from 'node:fs/promises';
import { z } from 'zod';
import type { AgentTool } from '../contract/agent-tool';
import { toolError } from '../contract/agent-tool';
import { openConfined } from './workspace-files';
import { resolveInWorkspace } from './workspace-paths';
import { clipLine, looksBinary, parseToolInput, type WorkspaceToolOptions } from './workspace-tool-support';

export const READ_FILE_LIMITS = { maxLines: 2000, maxBytes: 100 * 1024, maxLineChars: 2000 } as const;

const inputSchema = z.strictObject({
  path: z.string().min(1).max(4096),
  startLine: z.number().int().min(1).optional(),
  endLine: z.number().int().min(1).optional(),
});

interface Window {
  readonly lines: string[];
  /** The number of the line after the last one shown. */
  readonly next: number;
  /** Why it stopped before the end of the file, if it did. */
  readonly stoppedBy: 'range' | 'lines' | 'bytes' | null;
  /** Known when the whole file was read. */
  readonly totalLines: number | null;
  readonly binary: boolean;
}

/** Reads the numbered lines `start`..`end` in 64 KB chunks, never holding more than the window and one clipped line. */
async function readWindow(handle: FileHandle, start: number, end: number): Promise<Window> {
  const buffer = Buffer.alloc(64 * 1024);
  const decoder = new TextDecoder('utf-8');
  const lines: string[] = [];
  let shownBytes = 0;
  let lineNumber = 1;
  let current = '';
  let stoppedBy: Window['stoppedBy'] = null;
  let position = 0;

  const finishLine = (): boolean => {
    if (lineNumber >= start) {
      const text = `${String(lineNumber).padStart(6)}\t${clipLine(current.replace(/\r$/, ''), READ_FILE_LIMITS.maxLineChars)}`;
      const bytes = Buffer.byteLength(text) + 1;
      if (lines.length >= READ_FILE_LIMITS.maxLines) stoppedBy = 'lines';
      else if (shownBytes + bytes > READ_FILE_LIMITS.maxBytes && lines.length > 0) stoppedBy = 'bytes';
      if (stoppedBy !== null) return false;
      lines.push(text);
      shownBytes += bytes;
    }
    lineNumber += 1;
    current = '';
    if (lineNumber > end) stoppedBy = 'range';
    return stoppedBy === null;
  };
  const feed = (text: string): boolean => {
    for (let from = 0; ;) {
      const newline = text.indexOf('\n', from);
      const piece = newline === -1 ? text.slice(from) : text.slice(from, newline);
      // Keep only as much of a line as can be shown (a minified file can be one enormous line).
      if (current.length <= READ_FILE_LIMITS.maxLineChars)
        current += piece.slice(0, READ_FILE_LIMITS.maxLineChars + 1 - current.length);
      if (newline === -1) return true;
      if (!finishLine()) return false;
      from = newline + 1;
    }
  };

  for (;;) {
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, position);
    if (position === 0 && looksBinary(buffer.subarray(0, bytesRead)))
      return { lines: [], next: 1, stoppedBy: null, totalLines: null, binary: true };
    if (bytesRead === 0) break;
    position += bytesRead;
    if (!feed(decoder.decode(buffer.subarray(0, bytesRead), { stream: true })))
      return { lines, next: lineNumber, stoppedBy, totalLines: null, binary: false };
  }
  current += decoder.decode();
  if (current !== '' && !finishLine()) {
    return {
      lines,
      next: lineNumber,
      stoppedBy,
      totalLines: stoppedBy === 'range' ? lineNumber - 1 : null,
      binary: false,
    };
  }
  return { lines, next: lineNumber, stoppedBy: null, totalLines: lineNumber - 1, binary: false };
}

/** read_file: numbered lines of a text file in the workspace, a window at a time. */
export function createReadFileTool(options: WorkspaceToolOptions): AgentTool {
  return {
    name: 'read_file',
    description:
      `Reads a text file in the workspace and returns its lines numbered (like \`cat -n\`). At most ${READ_FILE_LIMITS.maxLines} lines ` +
      `or ${READ_FILE_LIMITS.maxBytes / 1024} KB come back per call; pass startLine/endLine to read another part. Binary files are refused.`,
    inputSchema: {
      type: 'object',
      properties: {
        path: { type: 'string', description: 'The file, relative to the workspace (e.g. "src/index.ts").' },
        startLine: { type: 'integer', minimum: 1, description: 'The first line to read (1-based). Default 1.' },
        endLine: {
          type: 'integer',
          minimum: 1,
          description: 'The last line to read, inclusive. Default: as far as the limits allow.',
        },
      },
      required: ['path'],
      additionalProperties: false,
    },
    readOnly: true,
    async execute(input) {
      const parsed = parseToolInput('read_file', inputSchema, input);
      if (!parsed.ok) return toolError(parsed.message);
      const { startLine = 1, endLine = Number.MAX_SAFE_INTEGER } = parsed.value;
      if (endLine < startLine) return toolError(`endLine (${endLine}) comes before startLine (${startLine}).`);
      const target = await resolveInWorkspace(options.root, parsed.value.path, { mustExist: true });
      if (!target.ok) return toolError(target.message);
      const opened = await openConfined(target);
      if (!opened.ok) return toolError(opened.message);
      try {
        if (opened.stats.isDirectory())
          return toolError(`"${target.relative}" is a folder. Use list_files to see what is in it.`);
        const window = await readWindow(opened.handle, startLine, endLine);
        if (window.binary)
          return toolError(
            `"${target.relative}" looks like a binary file (it contains NUL bytes); read_file shows text only.`,
          );
        if (window.lines.length === 0 && window.totalLines !== null && startLine > 1) {
          return toolError(
            `"${target.relative}" has ${window.totalLines} lines; startLine ${startLine} is past its end.`,
          );
        }
        const last = window.next - 1;
        const base = {
          path: target.relative,
          startLine,
          endLine: Math.max(last, startLine - 1),
          content: window.lines.join('\n'),
        };
        const total = window.totalLines === null ? {} : { totalLines: window.totalLines };
        if (window.stoppedBy === 'lines' || window.stoppedBy === 'bytes') {
          const limit =
            window.stoppedBy === 'lines'
              ? `${READ_FILE_LIMITS.maxLines} lines`
              : `${READ_FILE_LIMITS.maxBytes / 1024} KB`;
          return {
            output: {
              ...base,
              ...total,
              truncated: true,
              note: `Output stopped at the ${limit} limit. To read more, call read_file with startLine ${last + 1}.`,
            },
            isError: false,
          };
        }
        if (window.lines.length === 0)
          return { output: { ...base, ...total, note: 'The file is empty.' }, isError: false };
        return { output: { ...base, ...total }, isError: false };
      } finally {
        await opened.handle.close();
      }
    },
  };
}
