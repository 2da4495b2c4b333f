import { stat } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import type { AgentTool } from '../contract/agent-tool';
import { toolError } from '../contract/agent-tool';
import { openConfined } from './workspace-files';
import { findFiles, loadIgnoreRules, ONLY_GIT, unsafePatternReason } from './workspace-ignore';
import { resolveInWorkspace, type ResolvedWorkspacePath } from './workspace-paths';
import { clipLine, looksBinary, parseToolInput, type WorkspaceToolOptions } from './workspace-tool-support';

export const GREP_LIMITS = {
  maxMatches: 500,
  maxOutputChars: 50_000,
  maxLineChars: 500,
  maxFileBytes: 2 * 1024 * 1024,
  maxContextLines: 10,
  maxEntriesScanned: 200_000,
} as const;

const inputSchema = z.strictObject({
  pattern: z.string().min(1).max(2000),
  path: z.string().min(1).max(4096).optional(),
  glob: z.string().min(1).max(1000).optional(),
  contextLines: z.number().int().min(0).max(GREP_LIMITS.maxContextLines).optional(),
  caseSensitive: z.boolean().optional(),
});

interface Search {
  readonly regex: RegExp;
  readonly context: number;
  readonly out: string[];
  chars: number;
  matches: number;
  filesWithMatches: number;
  skippedLarge: number;
  truncated: boolean;
}

/** Appends one file's matches (with merged context ranges) in ripgrep's `path:line:` / `path-line-` form. */
function searchText(search: Search, relative: string, text: string): void {
  const lines = text.split(/\r?\n/);
  if (lines.at(-1) === '') lines.pop();
  const hits: number[] = [];
  for (let index = 0; index < lines.length; index += 1) if (search.regex.test(lines[index] ?? '')) hits.push(index);
  if (hits.length === 0) return;
  search.filesWithMatches += 1;
  const hitSet = new Set(hits);
  let printedUpTo = -1;
  for (const hit of hits) {
    if (search.matches >= GREP_LIMITS.maxMatches) {
      search.truncated = true;
      return;
    }
    const from = Math.max(hit - search.context, printedUpTo + 1);
    const to = Math.min(hit + search.context, lines.length - 1);
    const startsGroup = printedUpTo === -1 || from > printedUpTo + 1;
    if (search.context > 0 && search.out.length > 0 && startsGroup && from <= to) search.out.push('--');
    for (let index = from; index <= to; index += 1) {
      const separator = hitSet.has(index) ? ':' : '-';
      const line = `${relative}${separator}${index + 1}${separator}${clipLine(lines[index] ?? '', GREP_LIMITS.maxLineChars)}`;
      if (search.chars + line.length + 1 > GREP_LIMITS.maxOutputChars) {
        search.truncated = true;
        return;
      }
      search.out.push(line);
      search.chars += line.length + 1;
    }
    search.matches += 1;
    printedUpTo = to;
  }
}

async function searchFile(search: Search, target: ResolvedWorkspacePath): Promise<void> {
  const opened = await openConfined(target);
  if (!opened.ok) return; // vanished or changed since the walk: skip it
  try {
    if (!opened.stats.isFile()) return;
    if (opened.stats.size > GREP_LIMITS.maxFileBytes) {
      search.skippedLarge += 1;
      return;
    }
    const bytes = await opened.handle.readFile();
    if (looksBinary(bytes)) return;
    searchText(search, target.relative, bytes.toString('utf8'));
  } finally {
    await opened.handle.close();
  }
}

/** grep: lines matching a regular expression in the workspace's text files, .gitignore-aware and bounded. */
export function createGrepTool(options: WorkspaceToolOptions): AgentTool {
  return {
    name: 'grep',
    description:
      'Searches the text files of the workspace for a regular expression (JavaScript syntax) and returns matching lines as "path:line:text" ' +
      '(context lines as "path-line-text"). Skips .git, what .gitignore ignores, binary files and files over 2 MB. ' +
      `At most ${GREP_LIMITS.maxMatches} matches or ${GREP_LIMITS.maxOutputChars / 1000} KB of output.`,
    inputSchema: {
      type: 'object',
      properties: {
        pattern: {
          type: 'string',
          description:
            'A JavaScript regular expression, e.g. "function\\s+\\w+" or "TODO". Escape ( [ { . * + ? to match them literally.',
        },
        path: {
          type: 'string',
          description: 'A folder or a single file to search, relative to the workspace. Default: the workspace.',
        },
        glob: {
          type: 'string',
          description: 'Only search files matching this glob, e.g. "*.ts" (any depth) or "src/**/*.tsx".',
        },
        contextLines: {
          type: 'integer',
          minimum: 0,
          maximum: GREP_LIMITS.maxContextLines,
          description: 'Lines of context before and after each match. Default 0.',
        },
        caseSensitive: { type: 'boolean', description: 'Default true.' },
      },
      required: ['pattern'],
      additionalProperties: false,
    },
    readOnly: true,
    async execute(input, context) {
      const parsed = parseToolInput('grep', inputSchema, input);
      if (!parsed.ok) return toolError(parsed.message);
      const { pattern, glob, contextLines = 0, caseSensitive = true } = parsed.value;
      let regex: RegExp;
      try {
        regex = new RegExp(pattern, caseSensitive ? '' : 'i');
      } catch (error) {
        return toolError(
          `"${pattern}" is not a valid regular expression (${error instanceof Error ? error.message : String(error)}). ` +
            'Escape special characters such as ( [ { . * + ? with a backslash to match them literally.',
        );
      }
      if (glob !== undefined) {
        const unsafe = unsafePatternReason(glob);
        if (unsafe !== null) return toolError(`The glob "${glob}" cannot be used: ${unsafe}.`);
      }
      const target = await resolveInWorkspace(options.root, parsed.value.path ?? '.', { mustExist: true });
      if (!target.ok) return toolError(target.message);
      const search: Search = {
        regex,
        context: contextLines,
        out: [],
        chars: 0,
        matches: 0,
        filesWithMatches: 0,
        skippedLarge: 0,
        truncated: false,
      };
      const notes: string[] = [];

      if ((await stat(target.absolute)).isDirectory()) {
        const rules = loadIgnoreRules(target.root);
        const askedForIgnored = target.relative !== '.' && rules.ignores(target.relative, true);
        if (askedForIgnored)
          notes.push(`"${target.relative}" is ignored by .gitignore; it is searched because it was asked for by path.`);
        const found = await findFiles({
          root: target.root,
          folder: target.relative,
          patterns: [glob === undefined ? '**' : glob.includes('/') ? glob : `**/${glob}`],
          rules: askedForIgnored ? ONLY_GIT : rules,
          maxEntriesScanned: GREP_LIMITS.maxEntriesScanned,
          signal: context.signal,
        });
        if (found.scanCapped)
          notes.push(
            `The search stopped after ${GREP_LIMITS.maxEntriesScanned} entries; choose a smaller path to search everything in it.`,
          );
        for (const relative of found.files) {
          if (search.truncated || context.signal.aborted) break;
          await searchFile(search, {
            ok: true,
            absolute: path.join(target.root, relative),
            relative,
            root: target.root,
            exists: true,
          });
        }
      } else {
        await searchFile(search, target);
      }

      if (search.truncated)
        notes.push(
          `Output stopped at the limit (${GREP_LIMITS.maxMatches} matches or ${GREP_LIMITS.maxOutputChars / 1000} KB). Narrow the search with path, glob or a more specific pattern.`,
        );
      if (search.skippedLarge > 0)
        notes.push(
          `${search.skippedLarge} file(s) over ${GREP_LIMITS.maxFileBytes / 1024 / 1024} MB were not searched; read them with read_file.`,
        );
      if (search.matches === 0 && !search.truncated) notes.push('No matches.');
      return {
        output: {
          pattern,
          path: target.relative,
          matches: search.matches,
          files: search.filesWithMatches,
          content: search.out.join('\n'),
          ...(search.truncated ? { truncated: true } : {}),
          ...(notes.length === 0 ? {} : { note: notes.join(' ') }),
        },
        isError: false,
      };
    },
  };
}
