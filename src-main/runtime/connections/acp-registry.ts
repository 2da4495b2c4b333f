import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { arch, platform } from 'node:os';
import { join } from 'node:path';
import {
  parseAcpRegistry,
  registryPlatform,
  type AcpRegistryAgent,
  type AcpRegistryList,
  type AcpRegistrySource,
} from '../../../src-shared/acp-registry-model';
import type { Logger } from '../ports/ports';
import snapshot from './acp-registry-snapshot.json';

/** When the snapshot shipped with Cairn was built from the registry's repository (its commit's date). */
export const ACP_REGISTRY_SNAPSHOT_AT = Date.parse('2026-02-07T18:22:39Z');

/** The last good copy, in the data directory. */
const CACHE_FILE = 'acp-registry.json';
/** How often the list is fetched unless the person asks: about once a day. */
const REFRESH_EVERY_MS = 24 * 60 * 60 * 1000;
/** A registry bigger than this is not one (today's is ~20 KB). */
const MAX_BYTES = 2 * 1024 * 1024;

export interface AcpRegistryDeps {
  readonly dataDir: string;
  readonly url: string;
  readonly now: () => number;
  readonly logger: Logger;
  /** How long a fetch may take before it is given up (ms). */
  readonly timeoutMs?: number;
  /** The registry's binaries are picked for this platform key (`linux-x86_64`); tests may set another. */
  readonly platform?: string;
}

interface Current {
  readonly agents: readonly AcpRegistryAgent[];
  readonly source: AcpRegistrySource;
  readonly asOf: number;
  readonly dropped: number;
}

/**
 * The ACP agent registry's list, as Add connection shows it: the last good copy fetched (kept in the
 * data directory), else the snapshot shipped with Cairn. Refreshed from the registry's address when
 * asked, or in the background at most about once a day; a failed refresh keeps the list as it was and
 * says why. Nothing waits on the network but a refresh the person asked for (bounded by a timeout).
 */
export class AcpRegistry {
  private current: Current;
  private lastAttempt = 0;
  private refreshError: string | null = null;
  private running: Promise<void> | null = null;
  private readonly platform: string;

  constructor(private readonly deps: AcpRegistryDeps) {
    this.platform = deps.platform ?? registryPlatform(platform(), arch());
    this.current = this.readCache() ?? this.fromSnapshot();
  }

  list(): AcpRegistryList {
    return { ...this.current, refreshError: this.refreshError };
  }

  /** An agent of the list by its registry id. */
  agent(id: string): AcpRegistryAgent | null {
    return this.current.agents.find((agent) => agent.id === id) ?? null;
  }

  /** Whether a background refresh is due: none for about a day (fetched or tried). */
  due(): boolean {
    const latest = Math.max(this.lastAttempt, this.current.source === 'snapshot' ? 0 : this.current.asOf);
    return this.deps.now() - latest >= REFRESH_EVERY_MS;
  }

  /** Fetches the registry now (one fetch at a time); the list as it then stands, with why it failed, if it did. */
  async refresh(): Promise<AcpRegistryList> {
    this.running ??= this.fetchOnce().finally(() => (this.running = null));
    await this.running;
    return this.list();
  }

  /** Starts a refresh when one is due, without waiting for it. */
  refreshIfDue(): void {
    if (this.running === null && this.due()) void this.refresh();
  }

  private async fetchOnce(): Promise<void> {
    this.lastAttempt = this.deps.now();
    try {
      const document = await this.fetchDocument();
      const parsed = parseAcpRegistry(document, this.platform);
      if (parsed.agents.length === 0) throw new Error('the registry lists no agent Cairn can read');
      const fetchedAt = this.deps.now();
      this.current = { ...parsed, source: 'network', asOf: fetchedAt };
      this.refreshError = null;
      this.writeCache(document, fetchedAt);
    } catch (error) {
      this.refreshError = `Could not refresh the agent list from ${this.deps.url}: ${describe(error)}`;
      this.deps.logger.warn('The ACP agent registry could not be refreshed', { error: this.refreshError });
    }
  }

  private async fetchDocument(): Promise<unknown> {
    if (!/^https?:\/\//.test(this.deps.url)) throw new Error('not an http(s) address');
    const response = await fetch(this.deps.url, {
      signal: AbortSignal.timeout(this.deps.timeoutMs ?? 5_000),
      headers: { accept: 'application/json' },
      redirect: 'follow',
    });
    if (!response.ok) throw new Error(`the server answered ${response.status} ${response.statusText}`.trim());
    const body = await response.text();
    if (body.length > MAX_BYTES) throw new Error('the answer is too large to be the registry');
    try {
      return JSON.parse(body) as unknown;
    } catch {
      throw new Error('the answer is not JSON');
    }
  }

  private readCache(): Current | null {
    try {
      const cached = JSON.parse(readFileSync(join(this.deps.dataDir, CACHE_FILE), 'utf8')) as {
        fetchedAt?: unknown;
        registry?: unknown;
      };
      if (typeof cached.fetchedAt !== 'number') return null;
      const parsed = parseAcpRegistry(cached.registry, this.platform);
      return parsed.agents.length === 0 ? null : { ...parsed, source: 'cache', asOf: cached.fetchedAt };
    } catch {
      return null;
    }
  }

  private writeCache(registry: unknown, fetchedAt: number): void {
    try {
      mkdirSync(this.deps.dataDir, { recursive: true });
      const file = join(this.deps.dataDir, CACHE_FILE);
      writeFileSync(`${file}.tmp`, JSON.stringify({ fetchedAt, registry }));
      renameSync(`${file}.tmp`, file);
    } catch (error) {
      this.deps.logger.warn('The ACP agent registry could not be kept', { error: describe(error) });
    }
  }

  private fromSnapshot(): Current {
    return { ...parseAcpRegistry(snapshot, this.platform), source: 'snapshot', asOf: ACP_REGISTRY_SNAPSHOT_AT };
  }
}

function describe(error: unknown): string {
  if (error instanceof Error && error.name === 'TimeoutError') return 'no answer in time';
  if (error instanceof Error && error.cause instanceof Error) return `${error.message} (${error.cause.message})`;
  return error instanceof Error ? error.message : String(error);
}
