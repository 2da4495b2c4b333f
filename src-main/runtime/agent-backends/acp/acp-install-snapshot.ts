import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * What the agents folder held before an install: the entries of its `node_modules` (packages, scoped
 * packages and `.bin` links, by relative path) and npm's own files. An install that fails or is
 * cancelled puts the folder back to it, removing every package it added (an agent's dependencies
 * weigh far more than the agent) and nothing an earlier install left.
 */
export interface AgentsFolderSnapshot {
  readonly entries: readonly string[];
  readonly files: Readonly<Record<string, string | null>>;
}

/** npm's files, which an install rewrites: restored as they were. */
const NPM_FILES = ['package.json', 'package-lock.json', join('node_modules', '.package-lock.json')];

export function snapshotAgentsFolder(agentsDir: string): AgentsFolderSnapshot {
  return {
    entries: modulesEntries(agentsDir),
    files: Object.fromEntries(NPM_FILES.map((file) => [file, readOrNull(join(agentsDir, file))])),
  };
}

/**
 * Puts the agents folder back as the snapshot found it: entries added since are removed, npm's files
 * restored. Without the files (a snapshot kept across a restart holds only the entries), they stay.
 */
export function restoreAgentsFolder(
  agentsDir: string,
  snapshot: Pick<AgentsFolderSnapshot, 'entries'> & Partial<Pick<AgentsFolderSnapshot, 'files'>>,
): void {
  const kept = new Set(snapshot.entries);
  for (const entry of modulesEntries(agentsDir)) {
    if (!kept.has(entry)) rmSync(join(agentsDir, 'node_modules', entry), { recursive: true, force: true });
  }
  for (const [file, text] of Object.entries(snapshot.files ?? {})) {
    if (text === null) rmSync(join(agentsDir, file), { force: true });
    else writeFileSync(join(agentsDir, file), text);
  }
}

/** `node_modules`' packages (`name`, `@scope/name`) and `.bin` links (`.bin/name`). */
function modulesEntries(agentsDir: string): string[] {
  const modules = join(agentsDir, 'node_modules');
  if (!existsSync(modules)) return [];
  return readdirSync(modules).flatMap((name) => {
    if (name === '.package-lock.json') return [];
    if (name.startsWith('@') || name === '.bin')
      return [name, ...readdirSync(join(modules, name)).map((inner) => `${name}/${inner}`)];
    return [name];
  });
}

function readOrNull(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}
