import type { UsageGroup, UsageTotals } from '../../src-shared/usage-model';
import type { Db } from './database';

export interface UsageRecord {
  readonly sessionId: string;
  readonly turnId: string;
  readonly runId: string;
  readonly connectionId: string;
  readonly modelId: string;
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly cachedInputTokens: number;
  readonly reasoningTokens: number;
  readonly latencyMs: number;
  readonly costUsd: number | null;
  readonly recordedAt: number;
}

export interface UsageQuery {
  readonly by: 'session' | 'day' | 'model';
  readonly sessionId?: string;
  readonly from?: number;
  readonly to?: number;
}

/** Token usage and cost per model call, summed by session or by day. Rows outlive their session. */
export interface UsageStore {
  record(usage: UsageRecord): void;
  summary(query: UsageQuery): { totals: UsageTotals; groups: UsageGroup[] };
  /** Input plus output tokens of every model call in a run. */
  tokensOfRun(runId: string): number;
}

interface TotalsRow {
  calls: number;
  input: number;
  output: number;
  cached: number;
  reasoning: number;
  cost: number | null;
}

/** The cost is known only when every call's price is: a sum that skipped unpriced calls would understate it. */
const TOTALS = `COUNT(*) AS calls, TOTAL(input_tokens) AS input, TOTAL(output_tokens) AS output,
  TOTAL(cached_input_tokens) AS cached, TOTAL(reasoning_tokens) AS reasoning,
  CASE WHEN COUNT(cost_usd) = COUNT(*) THEN SUM(cost_usd) END AS cost`;

function toTotals(row: TotalsRow): UsageTotals {
  return {
    calls: row.calls,
    inputTokens: row.input,
    outputTokens: row.output,
    cachedInputTokens: row.cached,
    reasoningTokens: row.reasoning,
    costUsd: row.cost,
  };
}

/** How each grouping keys and labels its rows: by session, by day (UTC), by model (on its connection). */
const GROUPINGS: Record<UsageQuery['by'], { key: string; label: string }> = {
  session: { key: 'u.session_id', label: "COALESCE(s.title, 'Deleted session')" },
  day: {
    key: "strftime('%Y-%m-%d', u.recorded_at / 1000, 'unixepoch')",
    label: "strftime('%Y-%m-%d', u.recorded_at / 1000, 'unixepoch')",
  },
  model: {
    key: "u.connection_id || ' ' || u.model_id",
    label:
      "u.model_id || ' · ' || COALESCE(c.name, CASE u.connection_id WHEN 'offline-demo' THEN 'Offline demo' ELSE 'Removed connection' END)",
  },
};

export function createUsageStore(db: Db): UsageStore {
  const insert = db.prepare(`
    INSERT INTO usage_records (session_id, turn_id, run_id, connection_id, model_id, input_tokens, output_tokens,
      cached_input_tokens, reasoning_tokens, latency_ms, cost_usd, recorded_at)
    VALUES (@sessionId, @turnId, @runId, @connectionId, @modelId, @inputTokens, @outputTokens,
      @cachedInputTokens, @reasoningTokens, @latencyMs, @costUsd, @recordedAt)`);

  const ofRun = db.prepare<[string], { tokens: number }>(
    'SELECT TOTAL(input_tokens + output_tokens) AS tokens FROM usage_records WHERE run_id = ?',
  );
  return {
    tokensOfRun(runId) {
      return ofRun.get(runId)?.tokens ?? 0;
    },
    record(usage) {
      insert.run(usage);
    },
    summary(query) {
      const conditions: string[] = [];
      const params: Record<string, unknown> = {};
      if (query.sessionId !== undefined) {
        conditions.push('u.session_id = @sessionId');
        params.sessionId = query.sessionId;
      }
      if (query.from !== undefined) {
        conditions.push('u.recorded_at >= @from');
        params.from = query.from;
      }
      if (query.to !== undefined) {
        conditions.push('u.recorded_at < @to');
        params.to = query.to;
      }
      const where = conditions.length === 0 ? '' : `WHERE ${conditions.join(' AND ')}`;
      const totals = db
        .prepare<Record<string, unknown>, TotalsRow>(`SELECT ${TOTALS} FROM usage_records u ${where}`)
        .get(params);
      const { key, label } = GROUPINGS[query.by];
      const groups = db
        .prepare<Record<string, unknown>, TotalsRow & { key: string; label: string }>(
          `SELECT ${key} AS key, ${label} AS label, ${TOTALS}
           FROM usage_records u LEFT JOIN sessions s ON s.session_id = u.session_id
           LEFT JOIN connections c ON c.connection_id = u.connection_id
           ${where} GROUP BY ${key} ORDER BY MAX(u.recorded_at) DESC LIMIT 500`,
        )
        .all(params);
      return {
        totals: toTotals(totals ?? { calls: 0, input: 0, output: 0, cached: 0, reasoning: 0, cost: null }),
        groups: groups.map((row) => ({ key: row.key, label: row.label, ...toTotals(row) })),
      };
    },
  };
}
