import {
  chmodSync,
  closeSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  rmdirSync,
  statSync,
  unlinkSync,
} from 'node:fs';
import path from 'node:path';
import { configuredHooksPaths, worktreeGitDir } from './sandbox-layout';

/**
 * Configuration that makes code run later must stay read-only inside the wall also where the
 * workspace has none yet — a command must not create it (`mkdir .cairn`, `echo {} >
 * .claude/settings.json`). bwrap can only mount over something that exists, so each missing one gets
 * an empty placeholder on the host while a sandbox uses it: `.cairn` an empty folder, each settings
 * file of `.claude` an empty file (in an empty `.claude` made for them where there is none; the rest of
 * `.claude` stays writable), git's per-worktree config (`config.worktree`, read when the repository
 * turns on `extensions.worktreeConfig`) an empty file, and a hooks folder the config names
 * (`core.hooksPath`) that is not there yet an empty folder. The layout then finds them and mounts them read-only. When the last sandbox holding a placeholder is done, it is removed if it is still empty
 * (something a person wrote there meanwhile stays).
 */

/** Under the workspace: folders made empty when missing (`.cairn` is sealed whole; `.claude` holds the sealed files). */
const FOLDERS = ['.cairn', '.claude'] as const;
/** Inside an existing `.claude`: what is sealed as an empty file when missing. */
const CLAUDE_FILES = ['settings.json', 'settings.local.json'] as const;

function exists(target: string): boolean {
  try {
    lstatSync(target);
    return true;
  } catch {
    return false;
  }
}

function isRealFolder(target: string): boolean {
  try {
    return lstatSync(target).isDirectory();
  } catch {
    return false;
  }
}

/** Removes a placeholder that is still as it was made: an empty folder, an empty file. */
function removeIfEmpty(target: string): void {
  try {
    const stat = lstatSync(target);
    if (stat.isDirectory() && readdirSync(target).length === 0) rmdirSync(target);
    else if (stat.isFile() && stat.size === 0) unlinkSync(target);
  } catch {
    // gone already, or not ours to remove
  }
}

/** The placeholders of one host, counted per path so two sandboxes in one workspace share them. */
export class WorkspacePlaceholders {
  private readonly holders = new Map<string, number>();

  /** Makes the missing placeholders of `workspace` (a real path); returns what releases them. */
  hold(workspace: string): () => void {
    const held: string[] = [];
    const take = (target: string, make: () => void) => {
      if (!this.holders.has(target)) {
        if (exists(target)) return;
        try {
          make();
        } catch {
          return; // a workspace the host cannot write: a command cannot create it either
        }
      }
      this.holders.set(target, (this.holders.get(target) ?? 0) + 1);
      held.push(target);
    };
    // A folder made here opens as the workspace does (the host and the command are the same user; in tests they are not).
    const makeFolder = (folder: string) => {
      mkdirSync(folder);
      chmodSync(folder, statSync(workspace).mode & 0o7777);
    };
    for (const folder of FOLDERS) take(path.join(workspace, folder), () => makeFolder(path.join(workspace, folder)));
    const emptyFile = (file: string) => take(file, () => closeSync(openSync(file, 'wx')));
    const claude = path.join(workspace, '.claude');
    if (isRealFolder(claude)) for (const file of CLAUDE_FILES) emptyFile(path.join(claude, file));
    for (const gitDir of [path.join(workspace, '.git'), worktreeGitDir(workspace)])
      if (gitDir !== null && isRealFolder(gitDir)) emptyFile(path.join(gitDir, 'config.worktree'));
    for (const named of configuredHooksPaths(workspace)) {
      const folder = path.resolve(workspace, named);
      // Only inside the workspace (elsewhere a command cannot write anyway), and only its last part is made.
      if (folder.startsWith(`${workspace}/`) && isRealFolder(path.dirname(folder)))
        take(folder, () => makeFolder(folder));
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      // Files before the folder that may hold them.
      for (const target of held.reverse()) {
        const left = (this.holders.get(target) ?? 1) - 1;
        if (left > 0) {
          this.holders.set(target, left);
          continue;
        }
        this.holders.delete(target);
        removeIfEmpty(target);
      }
    };
  }
}
