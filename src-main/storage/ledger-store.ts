import type { Db } from './database';

/** Kinds of runtime events the ledger holds, in the order a run produces them. */
export type LedgerEventKind =
  | 'run_opened'
  | 'user_message'
  | 'step_started'
  | 'provider_retry'
  | 'assistant_text'
  | 'reasoning'
  | 'tool_call'
  | 'tool_result'
  | 'usage'
  | 'context_compacted'
  | 'interaction_requested'
  | 'interaction_answered'
  | 'hook_run'
  | 'run_waiting'
  | 'run_terminal';

export interface LedgerEvent {
  readonly kind: LedgerEventKind;
  readonly payload: Readonly<Record<string, unknown>>;
}

export interface LedgerEntry extends LedgerEvent {
  readonly runId: string;
  readonly sequence: number;
  readonly recordedAt: number;
}

/** The append-only record of what each run did. Nothing here updates or deletes a row. */
export interface LedgerStore {
  append(runId: string, events: readonly LedgerEvent[], now: number): void;
  entries(runId: string): LedgerEntry[];
}

export function createLedgerStore(db: Db): LedgerStore {
  const insert = db.prepare('INSERT INTO ledger (run_id, sequence, kind, payload, recorded_at) VALUES (?, ?, ?, ?, ?)');
  const lastSequence = db.prepare<[string], { last: number }>(
    'SELECT COALESCE(MAX(sequence), 0) AS last FROM ledger WHERE run_id = ?',
  );
  const entries = db.prepare<
    [string],
    { run_id: string; sequence: number; kind: LedgerEventKind; payload: string; recorded_at: number }
  >('SELECT run_id, sequence, kind, payload, recorded_at FROM ledger WHERE run_id = ? ORDER BY sequence');

  return {
    append(runId, events, now) {
      let sequence = lastSequence.get(runId)?.last ?? 0;
      for (const event of events) {
        sequence += 1;
        insert.run(runId, sequence, event.kind, JSON.stringify(event.payload), now);
      }
    },
    entries(runId) {
      return entries.all(runId).map((row) => ({
        runId: row.run_id,
        sequence: row.sequence,
        kind: row.kind,
        payload: JSON.parse(row.payload) as Record<string, unknown>,
        recordedAt: row.recorded_at,
      }));
    },
  };
}
