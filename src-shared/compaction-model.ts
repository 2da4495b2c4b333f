/**
 * Compaction: the older part of a conversation summarised into a durable summary record. The
 * transcript is never altered; later model requests send the newest summary and the turns after it.
 */

/** One summary of a session's conversation, from its first item through `lastPosition`. */
export interface SummaryRecord {
  readonly summaryId: string;
  readonly sessionId: string;
  /** Transcript positions covered (inclusive): a newer summary covers its predecessor's range too. */
  readonly firstPosition: number;
  readonly lastPosition: number;
  /** The first item covered, to scroll to. */
  readonly firstItemId: string;
  /** The person's messages covered, counted from the session's first: "turns 1–42". */
  readonly firstTurn: number;
  readonly lastTurn: number;
  /** Null when the agent compacted on its own and returned no text (Codex). */
  readonly text: string | null;
  /** The summary it replaces (the chain), if any. */
  readonly previousSummaryId: string | null;
  readonly turnId: string;
  readonly runId: string;
  /** What the summary call read and wrote, and what the summary itself costs in a request. */
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly summaryTokens: number;
  readonly createdAt: number;
}

/** The data of the transcript item (kind `notice`) that shows a summary as "Earlier conversation summarised". */
export interface CompactionNoticeData {
  readonly compaction: {
    readonly summaryId: string | null;
    readonly firstItemId: string | null;
    readonly firstTurn: number | null;
    readonly lastTurn: number | null;
    readonly text: string | null;
    /** Who compacted: Cairn (the session's model) or the native agent (Codex) on its own. */
    readonly by: 'cairn' | 'codex';
  };
}

/** The notice that opens a "Compact now" turn (what the person asked for). */
export interface CompactionRequestNoticeData {
  readonly compactionRequested: true;
}

/** When a session is compacted on its own: at this share of the model's context window. */
export const DEFAULT_COMPACTION_THRESHOLD = 0.8;

export interface CompactionSettings {
  readonly revision: number;
  /** Share of the context window (0.3–0.95) at which older turns are summarised. */
  readonly threshold: number;
}

export function isCompactionNotice(
  data: Readonly<Record<string, unknown>> | null,
): data is Readonly<Record<string, unknown>> & CompactionNoticeData {
  return data !== null && typeof data.compaction === 'object' && data.compaction !== null;
}

export function isCompactionRequestNotice(data: Readonly<Record<string, unknown>> | null): boolean {
  return data !== null && data.compactionRequested === true;
}
