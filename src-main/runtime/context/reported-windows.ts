import type { ProviderConnection } from '../connections/providers/provider-types';

export interface ReportedWindowsOptions {
  /** Asks the server for a model's context length (Ollama's `/api/show`); null when it answers without one, throws when unreachable. */
  lookup(connection: ProviderConnection, modelId: string, signal: AbortSignal): Promise<number | null>;
  /** The longest one question may take (default 5 s). */
  readonly timeoutMs?: number;
  /** How many answers are kept (default 512; the oldest go first). */
  readonly maxEntries?: number;
}

/** How many models' details are asked for at once, and at most, when a connection's models are fetched. */
const CONCURRENCY = 4;
const MAX_MODELS = 100;

/**
 * The context windows model servers report for their models, asked once per connection revision
 * (a changed address or key is a new revision, so it is asked again) and kept in memory. An answer
 * without a window is kept too; an unreachable server is not, so the next use asks again.
 */
export class ReportedWindows {
  private readonly answers = new Map<string, number | null>();
  private readonly asking = new Map<string, Promise<number | null>>();

  constructor(private readonly options: ReportedWindowsOptions) {}

  /** What the server said for this revision: a length, null (it reports none), undefined (not asked yet or unreachable). */
  peek(connectionId: string, revision: number, modelId: string): number | null | undefined {
    return this.answers.get(keyOf(connectionId, revision, modelId));
  }

  /** Asks (once per revision, bounded in time), answering null when the server cannot say. */
  async ask(
    connectionId: string,
    revision: number,
    connection: ProviderConnection,
    modelId: string,
    signal?: AbortSignal,
  ): Promise<number | null> {
    const key = keyOf(connectionId, revision, modelId);
    const known = this.answers.get(key);
    if (known !== undefined) return known;
    let pending = this.asking.get(key);
    if (pending === undefined) {
      const timeout = AbortSignal.timeout(this.options.timeoutMs ?? 5_000);
      const bounded = signal === undefined ? timeout : AbortSignal.any([signal, timeout]);
      pending = this.options
        .lookup(connection, modelId, bounded)
        .then((length) => {
          this.remember(key, length);
          return length;
        })
        .catch(() => null)
        .finally(() => this.asking.delete(key));
      this.asking.set(key, pending);
    }
    return pending;
  }

  /** The reported windows of many models (the first hundred), a few questions at a time. */
  async askMany(
    connectionId: string,
    revision: number,
    connection: ProviderConnection,
    modelIds: readonly string[],
  ): Promise<Map<string, number | null>> {
    const queue = modelIds.slice(0, MAX_MODELS);
    const found = new Map<string, number | null>();
    const worker = async () => {
      for (let modelId = queue.shift(); modelId !== undefined; modelId = queue.shift()) {
        found.set(modelId, await this.ask(connectionId, revision, connection, modelId));
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    return found;
  }

  private remember(key: string, length: number | null): void {
    this.answers.delete(key);
    this.answers.set(key, length);
    const max = this.options.maxEntries ?? 512;
    for (const oldest of this.answers.keys()) {
      if (this.answers.size <= max) break;
      this.answers.delete(oldest);
    }
  }
}

function keyOf(connectionId: string, revision: number, modelId: string): string {
  return `${connectionId}\n${revision}\n${modelId}`;
}
