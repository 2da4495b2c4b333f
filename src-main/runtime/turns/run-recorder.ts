import type { ChangeEventBody } from '../../../src-shared/events';
import type { TranscriptItemKind } from '../../../src-shared/model';
import type { LedgerEvent, LedgerEventKind } from '../../storage/ledger-store';
import type { UsageReport } from '../contract/agent-backend';
import type { Stores } from '../../storage/stores';
import type { EventBus } from '../ports/event-bus';
import type { Clock, Ids, Logger } from '../ports/ports';
import type { RunIdentity } from './run-lifecycle';
import { hookNotice } from '../hooks/hook-notice';
import type { HookRunReport } from '../hooks/hook-service';

type StreamKind = Extract<TranscriptItemKind, 'assistant_message' | 'reasoning'>;

type PendingOp =
  | { readonly op: 'event'; readonly event: LedgerEvent }
  | { op: 'text'; kind: StreamKind; text: string }
  | {
      readonly op: 'item';
      readonly kind: 'tool_call' | 'tool_result' | 'notice';
      readonly text: string;
      readonly data: Record<string, unknown>;
      readonly ledgerKind: LedgerEventKind;
    }
  | { readonly op: 'usage'; readonly usage: UsageReport };

export interface RecorderDeps {
  readonly stores: Stores;
  readonly bus: EventBus;
  readonly clock: Clock;
  readonly ids: Ids;
  readonly logger: Logger;
}

/** How long deltas gather before they are written and sent (ARCHITECTURE.md §4, invariant 5). */
export const DEFAULT_FLUSH_MS = 30;

/**
 * The durable write path of one run: what the backend reports is buffered, coalesced (consecutive
 * text deltas merge) and committed to the ledger and the transcript together, at most every
 * `flushMs`; change events go out only after the commit.
 */
export class RunRecorder {
  private pending: PendingOp[] = [];
  private openItem: { itemId: string; kind: StreamKind } | null = null;
  private cancelTimer: (() => void) | null = null;
  private closed = false;

  constructor(
    private readonly deps: RecorderDeps,
    readonly run: RunIdentity,
    private readonly connectionId: string,
    private readonly flushMs: number = DEFAULT_FLUSH_MS,
    /** A timed flush could not be written; what was buffered is gone (it was never sent). */
    private readonly onWriteFailed?: (error: unknown) => void,
  ) {}

  get isClosed(): boolean {
    return this.closed;
  }

  appendText(kind: StreamKind, text: string): void {
    if (this.closed || text === '') return;
    const last = this.pending.at(-1);
    if (last?.op === 'text' && last.kind === kind) last.text += text;
    else this.pending.push({ op: 'text', kind, text });
    this.schedule();
  }

  record(event: LedgerEvent): void {
    if (this.closed) return;
    this.pending.push({ op: 'event', event });
    this.schedule();
  }

  /** A tool call or tool result: its own transcript item and ledger event. Flush right after. */
  recordItem(kind: 'tool_call' | 'tool_result', text: string, data: Record<string, unknown>): void {
    if (this.closed) return;
    this.pending.push({ op: 'item', kind, text, data, ledgerKind: kind });
    this.schedule();
  }

  /** A hooks file that could not be read (none of its hooks run): a notice naming it, committed now. */
  recordHookFileError(error: { path: string; message: string }): void {
    if (this.closed) return;
    const text = `Hooks not run: ${error.message}`;
    this.pending.push({ op: 'item', kind: 'notice', text, data: { hookFileError: error }, ledgerKind: 'hook_run' });
    this.flush();
  }

  /** A hook's run: a notice in the transcript and a `hook_run` event in the ledger, committed now. */
  recordHookRun(report: HookRunReport, options: { toolCallId?: string; modelText?: string | null } = {}): void {
    if (this.closed) return;
    const { text, data } = hookNotice(report, options);
    this.pending.push({ op: 'item', kind: 'notice', text, data, ledgerKind: 'hook_run' });
    this.flush();
  }

  recordUsage(usage: UsageReport): void {
    if (this.closed) return;
    this.pending.push({ op: 'usage', usage });
    this.schedule();
  }

  /** Commits what is buffered now, then publishes it. */
  flush(): void {
    if (this.pending.length === 0) return;
    const events = this.deps.stores.transaction(() => this.commitPending());
    for (const event of events) this.deps.bus.publish(event);
  }

  /**
   * Writes what is buffered; must run inside the caller's transaction. Returns the change events to
   * publish once that transaction commits.
   */
  commitPending(): ChangeEventBody[] {
    this.cancelTimer?.();
    this.cancelTimer = null;
    const ops = this.pending;
    this.pending = [];
    if (ops.length === 0) return [];
    const { stores, clock, ids } = this.deps;
    const { sessionId, turnId, runId } = this.run;
    const now = clock.now();
    const ledger: LedgerEvent[] = [];
    const published: ChangeEventBody[] = [];
    for (const pending of ops) {
      if (pending.op === 'event') {
        ledger.push(pending.event);
        continue;
      }
      if (pending.op === 'usage') {
        ledger.push({ kind: 'usage', payload: { ...pending.usage } });
        stores.usage.record({
          sessionId,
          turnId,
          runId,
          connectionId: this.connectionId,
          modelId: pending.usage.model,
          ...pending.usage,
          recordedAt: now,
        });
        continue;
      }
      if (pending.op === 'item') {
        this.openItem = null;
        const position = stores.sessions.reservePositions(sessionId, 1);
        const item = stores.transcript.append(
          {
            sessionId,
            itemId: ids.next('item'),
            turnId,
            runId,
            kind: pending.kind,
            text: pending.text,
            state: 'final',
            data: pending.data,
            now,
          },
          position,
        );
        published.push({ kind: 'transcript.appended', item });
        ledger.push({ kind: pending.ledgerKind, payload: { itemId: item.itemId, ...pending.data } });
        continue;
      }
      if (this.openItem === null || this.openItem.kind !== pending.kind) {
        const itemId = ids.next('item');
        const position = stores.sessions.reservePositions(sessionId, 1);
        const item = stores.transcript.append(
          { sessionId, itemId, turnId, runId, kind: pending.kind, text: pending.text, state: 'streaming', now },
          position,
        );
        this.openItem = { itemId, kind: pending.kind };
        published.push({ kind: 'transcript.appended', item });
      } else {
        const length = stores.transcript.appendText(this.openItem.itemId, pending.text);
        published.push({
          kind: 'transcript.delta',
          sessionId,
          itemId: this.openItem.itemId,
          text: pending.text,
          length,
        });
      }
      ledger.push({
        kind: pending.kind === 'reasoning' ? 'reasoning' : 'assistant_text',
        payload: { itemId: this.openItem.itemId, text: pending.text },
      });
    }
    stores.ledger.append(runId, ledger, now);
    return published;
  }

  /** After this nothing more is written: late output from stopped work is discarded. */
  close(): void {
    this.closed = true;
    this.pending = [];
    this.cancelTimer?.();
    this.cancelTimer = null;
  }

  private schedule(): void {
    if (this.cancelTimer !== null) return;
    this.cancelTimer = this.deps.clock.setTimeout(() => {
      this.cancelTimer = null;
      if (this.closed) return;
      try {
        this.flush();
      } catch (error) {
        this.deps.logger.error('Could not record streamed output', { runId: this.run.runId, error: String(error) });
        this.onWriteFailed?.(error);
      }
    }, this.flushMs);
  }
}
