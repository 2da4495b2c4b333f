import { readdir, readlink, stat } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import type { AgentTool } from '../contract/agent-tool';
import { toolError } from '../contract/agent-tool';
import { loadIgnoreRules, ONLY_GIT, type IgnoreRules } from './workspace-ignore';
import { resolveInWorkspace, stillInside } from './workspace-paths';
import { parseToolInput, type WorkspaceToolOptions } from './workspace-tool-support';

export const LIST_FILES_LIMITS = { maxEntries: 1000, defaultDepth: 2, maxDepth: 10 } as const;

const inputSchema = z.strictObject({
  path: z.string().min(1).max(4096).optional(),
  depth: z.number().int().min(1).max(LIST_FILES_LIMITS.maxDepth).optional(),
});

interface Listing {
  readonly lines: string[];
  truncated: boolean;
  unexpanded: number;
  /** Entries left out because their folder stopped being where it was (swapped for a link). */
  moved: number;
}

/** Depth-first, sorted; folders end in `/`, links show their target and are not followed. */
async function list(
  root: string,
  folder: string,
  depth: number,
  rules: IgnoreRules,
  listing: Listing,
  signal: AbortSignal,
): Promise<void> {
  let entries;
  try {
    entries = await readdir(path.join(root, folder), { withFileTypes: true });
  } catch {
    return; // a folder that vanished or cannot be read simply shows nothing
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    if (listing.truncated || signal.aborted) return;
    const relative = folder === '' ? entry.name : `${folder}/${entry.name}`;
    if (rules.ignores(relative, entry.isDirectory())) continue;
    if (listing.lines.length >= LIST_FILES_LIMITS.maxEntries) {
      listing.truncated = true;
      return;
    }
    // The folder was read by its path: make sure each name really is inside before showing it.
    if (!(await stillInside(root, relative, entry.isSymbolicLink()))) {
      listing.moved += 1;
      continue;
    }
    if (entry.isSymbolicLink()) {
      const target = await readlink(path.join(root, relative)).catch(() => '?');
      if (!(await stillInside(root, relative, true))) {
        listing.moved += 1;
        continue;
      }
      listing.lines.push(`${relative} -> ${target}`);
    } else if (entry.isDirectory()) {
      listing.lines.push(`${relative}/`);
      if (depth > 1) await list(root, relative, depth - 1, rules, listing, signal);
      else listing.unexpanded += 1;
    } else {
      listing.lines.push(relative);
    }
  }
}

/** list_files: the files and folders under a workspace folder, as a bounded, .gitignore-aware listing. */
export function createListFilesTool(options: WorkspaceToolOptions): AgentTool {
  return {
    name: 'list_files',
    description:
      `Lists files and folders in the workspace (folders end in "/"), skipping .git and whatever .gitignore ignores. ` +
      `Goes ${LIST_FILES_LIMITS.defaultDepth} levels deep unless told otherwise; at most ${LIST_FILES_LIMITS.maxEntries} entries.`,
    inputSchema: {
      type: 'object',
      properties: {
        path: {
          type: 'string',
          description: 'The folder to list, relative to the workspace. Default: the workspace itself.',
        },
        depth: {
          type: 'integer',
          minimum: 1,
          maximum: LIST_FILES_LIMITS.maxDepth,
          description: `How many levels to descend (1 = only this folder). Default ${LIST_FILES_LIMITS.defaultDepth}.`,
        },
      },
      additionalProperties: false,
    },
    readOnly: true,
    async execute(input, context) {
      const parsed = parseToolInput('list_files', inputSchema, input);
      if (!parsed.ok) return toolError(parsed.message);
      const target = await resolveInWorkspace(options.root, parsed.value.path ?? '.', { mustExist: true });
      if (!target.ok) return toolError(target.message);
      if (!(await stat(target.absolute)).isDirectory())
        return toolError(`"${target.relative}" is a file, not a folder. Use read_file to read it.`);
      const rules = loadIgnoreRules(target.root);
      const folder = target.relative === '.' ? '' : target.relative;
      const askedForIgnored = folder !== '' && rules.ignores(folder, true);
      const listing: Listing = { lines: [], truncated: false, unexpanded: 0, moved: 0 };
      try {
        await options.beforeWalk?.(target.absolute);
        await list(
          target.root,
          folder,
          parsed.value.depth ?? LIST_FILES_LIMITS.defaultDepth,
          askedForIgnored ? ONLY_GIT : rules,
          listing,
          context.signal,
        );
      } catch (error) {
        return toolError(
          `"${target.relative}" cannot be listed (${error instanceof Error ? error.message : String(error)}).`,
        );
      }
      const notes: string[] = [];
      if (askedForIgnored)
        notes.push(`"${target.relative}" is ignored by .gitignore; it is listed because it was asked for by path.`);
      if (listing.truncated)
        notes.push(
          `Stopped at ${LIST_FILES_LIMITS.maxEntries} entries. List a subfolder (path) or use glob to narrow down.`,
        );
      if (listing.moved > 0)
        notes.push(
          `${listing.moved} entries were left out: their folder was moved or replaced by a link while it was being listed.`,
        );
      if (listing.unexpanded > 0)
        notes.push(
          `Folders at the depth limit are not expanded; list one with path (or a larger depth) to see inside.`,
        );
      if (listing.lines.length === 0 && !listing.truncated)
        notes.push('Nothing to list here (the folder is empty or everything in it is ignored).');
      return {
        output: {
          path: target.relative,
          entries: listing.lines.join('\n'),
          count: listing.lines.length,
          ...(listing.truncated ? { truncated: true } : {}),
          ...(notes.length === 0 ? {} : { note: notes.join(' ') }),
        },
        isError: false,
      };
    },
  };
}
