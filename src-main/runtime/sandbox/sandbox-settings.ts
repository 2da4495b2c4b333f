import path from 'node:path';
import type { SettingsStore } from '../../storage/settings-store';
import { hostAllowed, parseHostPatterns } from './host-patterns';
import { DENIED_IN_HOME } from './sandbox-layout';

/**
 * The person's sandbox settings, kept in the settings store: network hosts allowed everywhere, extra
 * writable folders and extra denied paths (global), and each session's own allowed hosts. Read per
 * command, so a change applies to the next one. A list is checked whole before anything is saved.
 */

export interface SandboxSettings {
  /** Host patterns every session's commands may reach. */
  readonly allowedHosts: readonly string[];
  /** Absolute folders writable beside the workspace. */
  readonly writableFolders: readonly string[];
  /** Absolute paths hidden beside the built-in deny list. */
  readonly deniedPaths: readonly string[];
}

const GLOBAL_KEY = 'sandbox.settings';
const sessionKey = (sessionId: string) => `sandbox.sessionHosts.${sessionId}`;
export const EMPTY_SANDBOX_SETTINGS: SandboxSettings = { allowedHosts: [], writableFolders: [], deniedPaths: [] };

export type Checked<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly message: string };

const within = (inner: string, outer: string) =>
  inner === outer || inner.startsWith(outer.endsWith('/') ? outer : `${outer}/`);

function absoluteFolders(entries: readonly string[], what: string): Checked<string[]> {
  const result: string[] = [];
  for (const entry of entries) {
    const typed = entry.trim();
    if (typed === '') continue;
    if (!path.isAbsolute(typed))
      return { ok: false, message: `"${typed}" is not an absolute path: ${what} must start with /.` };
    const normal = path.resolve(typed);
    if (!result.includes(normal)) result.push(normal);
  }
  return { ok: true, value: result };
}

/**
 * Checks settings as typed: valid host patterns; absolute paths; no writable folder that would open
 * the deny list (one that is, holds or lies inside a denied path or Cairn's data directory).
 */
export function checkSandboxSettings(
  typed: SandboxSettings,
  where: { readonly home: string; readonly dataDir: string | null },
): Checked<SandboxSettings> {
  const hosts = parseHostPatterns(typed.allowedHosts.filter((entry) => entry.trim() !== ''));
  if (!hosts.ok) return hosts;
  const denied = absoluteFolders(typed.deniedPaths, 'a denied path');
  if (!denied.ok) return denied;
  const writable = absoluteFolders(typed.writableFolders, 'a writable folder');
  if (!writable.ok) return writable;
  const protectedPaths = [
    ...DENIED_IN_HOME.map((entry) => ({ path: path.join(where.home, entry), name: `~/${entry}` })),
    ...(where.dataDir === null ? [] : [{ path: path.resolve(where.dataDir), name: "Cairn's data directory" }]),
    ...denied.value.map((entry) => ({ path: entry, name: entry })),
  ];
  for (const folder of writable.value) {
    if (folder === '/') return { ok: false, message: `"/" cannot be a writable folder: it holds every denied path.` };
    const clash = protectedPaths.find((entry) => within(entry.path, folder) || within(folder, entry.path));
    if (clash !== undefined) {
      return {
        ok: false,
        message: `"${folder}" cannot be a writable folder: it would open ${clash.name} (${clash.path}), which the sandbox hides.`,
      };
    }
  }
  return {
    ok: true,
    value: { allowedHosts: hosts.patterns, writableFolders: writable.value, deniedPaths: denied.value },
  };
}

/** The settings as stored (the global lists), or the empty ones. */
export function storedSandboxSettings(settings: SettingsStore): SandboxSettings {
  return { ...EMPTY_SANDBOX_SETTINGS, ...(settings.get<SandboxSettings>(GLOBAL_KEY) ?? {}) };
}

/**
 * Checks an ACP connection's writable folders as Settings → Sandbox checks its own: absolute, and
 * none that would open the deny list — under the person's home, under the agent's own HOME (its
 * connection's `HOME`, when it sets one), Cairn's data directory or an extra denied path.
 */
export function checkAgentFolders(
  folders: readonly string[],
  where: {
    readonly home: string;
    readonly agentHome: string | null;
    readonly dataDir: string | null;
    readonly deniedPaths: readonly string[];
  },
): Checked<string[]> {
  let value: string[] = [];
  for (const home of where.agentHome === null || where.agentHome === where.home
    ? [where.home]
    : [where.home, where.agentHome]) {
    const checked = checkSandboxSettings(
      { allowedHosts: [], writableFolders: folders, deniedPaths: where.deniedPaths },
      { home, dataDir: where.dataDir },
    );
    if (!checked.ok) return checked;
    value = [...checked.value.writableFolders];
  }
  return { ok: true, value };
}

export class SandboxSettingsService {
  /** "Allow once": hosts for a session's next command, kept in memory only. */
  private readonly once = new Map<string, string[]>();

  constructor(
    private readonly deps: { readonly settings: SettingsStore; readonly home: string; readonly dataDir: string },
  ) {}

  get(): SandboxSettings {
    return storedSandboxSettings(this.deps.settings);
  }

  /** Saves the settings when all of them are right; otherwise saves nothing and says what is wrong. */
  set(typed: SandboxSettings): Checked<SandboxSettings> {
    const checked = checkSandboxSettings(typed, this.deps);
    if (checked.ok) this.deps.settings.set(GLOBAL_KEY, checked.value);
    return checked;
  }

  /** The hosts this session's commands may reach beyond the global list. */
  sessionHosts(sessionId: string): string[] {
    return this.deps.settings.get<string[]>(sessionKey(sessionId)) ?? [];
  }

  /** Both lists together, as the proxy asks. */
  allowedHosts(sessionId: string): string[] {
    return [...this.get().allowedHosts, ...this.sessionHosts(sessionId)];
  }

  allows(sessionId: string, host: string, port: number): boolean {
    return hostAllowed(this.allowedHosts(sessionId), host, port);
  }

  /** Adds a host for the session (or, `always`, to the global list). */
  allowHost(sessionId: string, host: string, scope: 'session' | 'always'): Checked<string[]> {
    const parsed = parseHostPatterns([host]);
    if (!parsed.ok) return parsed;
    const pattern = parsed.patterns[0] ?? host;
    if (scope === 'always') {
      const current = this.get();
      if (!current.allowedHosts.includes(pattern))
        this.deps.settings.set(GLOBAL_KEY, { ...current, allowedHosts: [...current.allowedHosts, pattern] });
      return { ok: true, value: this.get().allowedHosts.slice() };
    }
    const hosts = this.sessionHosts(sessionId);
    if (!hosts.includes(pattern)) this.deps.settings.set(sessionKey(sessionId), [...hosts, pattern]);
    return { ok: true, value: this.sessionHosts(sessionId) };
  }

  allowOnce(sessionId: string, host: string): void {
    const parsed = parseHostPatterns([host]);
    if (parsed.ok) this.once.set(sessionId, [...(this.once.get(sessionId) ?? []), ...parsed.patterns]);
  }

  /** The hosts allowed once for the session, taken (the command starting now gets them, no later one). */
  takeOnce(sessionId: string): string[] {
    const hosts = this.once.get(sessionId) ?? [];
    this.once.delete(sessionId);
    return hosts;
  }

  /** Takes the first "Allow once" of the session that lets `host:port` through (a walled agent's next connection there). */
  takeOnceFor(sessionId: string, host: string, port: number): boolean {
    const hosts = this.once.get(sessionId) ?? [];
    const at = hosts.findIndex((pattern) => hostAllowed([pattern], host, port));
    if (at === -1) return false;
    const left = hosts.filter((_pattern, index) => index !== at);
    if (left.length === 0) this.once.delete(sessionId);
    else this.once.set(sessionId, left);
    return true;
  }

  removeSessionHost(sessionId: string, host: string): string[] {
    this.deps.settings.set(
      sessionKey(sessionId),
      this.sessionHosts(sessionId).filter((entry) => entry !== host),
    );
    return this.sessionHosts(sessionId);
  }
}
