import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseHookFile, type HookDefinition } from './hook-settings';

/** Where a hook comes from: Cairn's own file, the person's Claude Code settings, or the workspace. */
export type HookSourceKind = 'global' | 'claude_user' | 'workspace';

export interface HookSourceFile {
  readonly kind: HookSourceKind;
  readonly path: string;
}

/** One hook as it applies to a session: its definition, its file, and whether it may run. */
export interface ResolvedHook extends HookDefinition {
  /** Stable while the file keeps the same hook at the same place with the same command. */
  readonly id: string;
  readonly source: HookSourceFile;
  readonly enabled: boolean;
  /** A workspace hook runs only once the person trusted its file as it is now; others are always trusted. */
  readonly trusted: boolean;
}

/** A workspace file whose hooks wait for the person's trust (new, or changed since they trusted it). */
export interface UntrustedHookFile {
  readonly path: string;
  /** The hash of its hook definitions: trusting it trusts exactly these. */
  readonly hash: string;
  readonly count: number;
}

export interface SessionHooks {
  readonly hooks: readonly ResolvedHook[];
  /** Files that could not be read as hooks: the message names the file and the line. */
  readonly errors: readonly { readonly path: string; readonly message: string }[];
  readonly untrusted: readonly UntrustedHookFile[];
  /** Entries Cairn does not run (other events, other hook types), by file. */
  readonly skipped: readonly string[];
}

export interface HookSourceOptions {
  readonly dataDir: string;
  /** The person's home, whose `.claude/settings.json` is read when they opted in. */
  readonly homeDir: string;
  readonly workspace: string | null;
  readonly useClaudeUserSettings: boolean;
  /** The Claude Code ACP agent runs a workspace's `.claude/settings.json` hooks itself: Cairn leaves that file out. */
  readonly agentRunsClaudeProjectHooks: boolean;
  readonly trustedHashOf: (path: string) => string | null;
  readonly isDisabled: (hookId: string) => boolean;
}

/** The files hooks are read from for a session, in the order their hooks run. */
export function hookSourceFiles(options: HookSourceOptions): HookSourceFile[] {
  const files: HookSourceFile[] = [{ kind: 'global', path: join(options.dataDir, 'hooks.json') }];
  if (options.useClaudeUserSettings)
    files.push({ kind: 'claude_user', path: join(options.homeDir, '.claude', 'settings.json') });
  if (options.workspace !== null) {
    files.push({ kind: 'workspace', path: join(options.workspace, '.cairn', 'settings.json') });
    if (!options.agentRunsClaudeProjectHooks)
      files.push({ kind: 'workspace', path: join(options.workspace, '.claude', 'settings.json') });
  }
  return files;
}

/** Reads every source of a session's hooks now (they are small files; an edit applies to the next event). */
export function readSessionHooks(options: HookSourceOptions): SessionHooks {
  const hooks: ResolvedHook[] = [];
  const errors: { path: string; message: string }[] = [];
  const untrusted: UntrustedHookFile[] = [];
  const skipped: string[] = [];
  for (const source of hookSourceFiles(options)) {
    const read = readSource(source.path);
    if (read === null) continue;
    if ('error' in read) {
      errors.push({ path: source.path, message: `${source.path}: could not be read (${read.error})` });
      continue;
    }
    const parsed = parseHookFile(source.path, read.text);
    if (!parsed.ok) {
      errors.push({ path: source.path, message: parsed.error });
      continue;
    }
    skipped.push(...parsed.skipped.map((line) => `${source.path}: ${line}`));
    if (parsed.hooks.length === 0) continue;
    const hash = hookDefinitionsHash(parsed.hooks);
    const trusted = source.kind !== 'workspace' || options.trustedHashOf(source.path) === hash;
    if (!trusted) untrusted.push({ path: source.path, hash, count: parsed.hooks.length });
    for (const definition of parsed.hooks) {
      const id = hookId(source.path, definition);
      hooks.push({ ...definition, id, source, trusted, enabled: !options.isDisabled(id) });
    }
  }
  return { hooks, errors, untrusted, skipped };
}

/** The hash trust is keyed by: every definition of the file, in order. A change to any of them asks again. */
export function hookDefinitionsHash(hooks: readonly HookDefinition[]): string {
  const canonical = hooks.map((hook) => [hook.event, hook.matcher, hook.command, hook.timeoutSeconds, hook.onError]);
  return createHash('sha256').update(JSON.stringify(canonical)).digest('hex');
}

function hookId(path: string, hook: HookDefinition): string {
  return createHash('sha256')
    .update(`${path}\u0000${hook.place}\u0000${hook.matcher}\u0000${hook.command}`)
    .digest('hex')
    .slice(0, 16);
}

function readSource(path: string): { text: string } | { error: string } | null {
  try {
    return { text: readFileSync(path, 'utf8') };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    return { error: code ?? String(error) };
  }
}
