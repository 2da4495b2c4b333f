import { stat } from 'node:fs/promises';
import { z } from 'zod';
import type { AgentTool } from '../contract/agent-tool';
import { toolError } from '../contract/agent-tool';
import { findFiles, loadIgnoreRules, ONLY_GIT, unsafePatternReason } from './workspace-ignore';
import { resolveInWorkspace, stillInside } from './workspace-paths';
import { parseToolInput, type WorkspaceToolOptions } from './workspace-tool-support';

export const GLOB_LIMITS = { maxResults: 1000, maxEntriesScanned: 200_000 } as const;

const inputSchema = z.strictObject({
  pattern: z.string().min(1).max(1000),
  path: z.string().min(1).max(4096).optional(),
});

/** glob: workspace files whose paths match a glob pattern, .gitignore-aware and bounded. */
export function createGlobTool(options: WorkspaceToolOptions): AgentTool {
  return {
    name: 'glob',
    description:
      'Finds files in the workspace by glob pattern, e.g. "**/*.ts", "src/**/*.{js,jsx}", "*.md" (top level only). ' +
      `Patterns are relative to path (default: the workspace). Skips .git and what .gitignore ignores; symbolic links are not followed. At most ${GLOB_LIMITS.maxResults} paths, sorted.`,
    inputSchema: {
      type: 'object',
      properties: {
        pattern: {
          type: 'string',
          description: 'The glob pattern: * within a name, ** across folders, {a,b} alternatives.',
        },
        path: {
          type: 'string',
          description: 'The folder to search in, relative to the workspace. Default: the workspace itself.',
        },
      },
      required: ['pattern'],
      additionalProperties: false,
    },
    readOnly: true,
    async execute(input, context) {
      const parsed = parseToolInput('glob', inputSchema, input);
      if (!parsed.ok) return toolError(parsed.message);
      const { pattern } = parsed.value;
      const unsafe = unsafePatternReason(pattern);
      if (unsafe !== null) return toolError(`The pattern "${pattern}" cannot be used: ${unsafe}.`);
      const target = await resolveInWorkspace(options.root, parsed.value.path ?? '.', { mustExist: true });
      if (!target.ok) return toolError(target.message);
      if (!(await stat(target.absolute)).isDirectory())
        return toolError(`"${target.relative}" is a file; path must be a folder.`);
      const rules = loadIgnoreRules(target.root);
      const askedForIgnored = target.relative !== '.' && rules.ignores(target.relative, true);
      let found;
      try {
        await options.beforeWalk?.(target.absolute);
        found = await findFiles({
          root: target.root,
          folder: target.relative,
          patterns: [pattern],
          rules: askedForIgnored ? ONLY_GIT : rules,
          maxEntriesScanned: GLOB_LIMITS.maxEntriesScanned,
          signal: context.signal,
        });
      } catch (error) {
        return toolError(`The search failed: ${error instanceof Error ? error.message : String(error)}.`);
      }
      // Folders were read by their paths: every name shown is checked to be inside, now.
      const candidates = found.files.slice(0, GLOB_LIMITS.maxResults);
      const inside = await Promise.all(candidates.map((file) => stillInside(target.root, file)));
      const shown = candidates.filter((_file, index) => inside[index]);
      const notes: string[] = [];
      if (askedForIgnored)
        notes.push(`"${target.relative}" is ignored by .gitignore; it is searched because it was asked for by path.`);
      if (shown.length < candidates.length) {
        notes.push(
          `${candidates.length - shown.length} matches were left out: their folder was moved or replaced by a link during the search.`,
        );
      }
      if (found.files.length > candidates.length) {
        notes.push(
          `Showing the first ${shown.length} of ${found.files.length} matches. Narrow the pattern or the path to see the rest.`,
        );
      }
      if (found.scanCapped)
        notes.push(
          `The search stopped after ${GLOB_LIMITS.maxEntriesScanned} entries; choose a smaller path to search everything in it.`,
        );
      if (found.files.length === 0) notes.push('No files match.');
      return {
        output: {
          pattern,
          path: target.relative,
          files: shown.join('\n'),
          count: found.files.length,
          ...(found.files.length > shown.length || found.scanCapped ? { truncated: true } : {}),
          ...(notes.length === 0 ? {} : { note: notes.join(' ') }),
        },
        isError: false,
      };
    },
  };
}
