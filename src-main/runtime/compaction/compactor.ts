import type { CompactionNoticeData, SummaryRecord } from '../../../src-shared/compaction-model';
import type { ChangeEventBody } from '../../../src-shared/events';
import type { TranscriptItem } from '../../../src-shared/model';
import type { Stores } from '../../storage/stores';
import type { HistoryMessage, UsageReport } from '../contract/agent-backend';
import { MESSAGE_OVERHEAD_TOKENS, OFFLOAD_TOKENS } from '../context/context-assembler';
import { historyMessageOf, type RevealToolOutput } from '../context/history-items';
import { countTokens, countValueTokens } from '../context/token-count';
import type { EventBus } from '../ports/event-bus';
import type { Clock, Ids } from '../ports/ports';
import { keptStart, type RangeEntry } from './compaction-range';
import type { Summariser } from './summarisers';
import { renderForSummary, SUMMARY_SYSTEM_PROMPT, summaryPrompt } from './summary-prompt';

export interface CompactorDeps {
  readonly stores: Stores;
  readonly bus: EventBus;
  readonly clock: Clock;
  readonly ids: Ids;
  readonly reveal?: RevealToolOutput;
}

export interface CompactRequest {
  readonly sessionId: string;
  /** The turn and run the summary is recorded in (its card appears there). */
  readonly turnId: string;
  readonly runId: string;
  /** Input tokens one request to the model may carry (the summary call must fit too). */
  readonly inputBudget: number;
  /** Tokens of the newest messages that stay verbatim (0: summarise everything so far). */
  readonly keepTokens: number;
  readonly summariser: Summariser;
  readonly signal: AbortSignal;
}

export type CompactOutcome =
  | { readonly kind: 'compacted'; readonly summary: SummaryRecord; readonly usage: readonly UsageReport[] }
  /** Nothing older than what stays verbatim: no summary was written. */
  | { readonly kind: 'nothing' }
  /** Stopped while summarising: nothing was written. */
  | { readonly kind: 'stopped'; readonly usage: readonly UsageReport[] };

/** The notice text of a summary card. */
export const SUMMARY_CARD_TEXT = 'Earlier conversation summarised';

const READ_PAGE = 200;
/** What the summary call leaves itself beyond the prompt: the instructions and separators. */
const PROMPT_SLACK_TOKENS = 200;

interface Candidate {
  readonly item: TranscriptItem;
  readonly message: HistoryMessage;
  readonly entry: RangeEntry;
}

/**
 * Summarises the older part of a session's conversation into durable summary records, each with a
 * card in the transcript. The summary chains: a new one covers the range of the one before and
 * folds its text in. When the part to summarise does not fit one request, it is summarised oldest
 * first in several (each a record). Nothing is written once `signal` is aborted.
 */
export class Compactor {
  constructor(private readonly deps: CompactorDeps) {}

  async compact(request: CompactRequest): Promise<CompactOutcome> {
    const { stores } = this.deps;
    let previous = stores.summaries.latest(request.sessionId);
    const candidates = this.itemsAfter(request.sessionId, previous?.lastPosition ?? -1);
    const start = keptStart(
      candidates.map((candidate) => candidate.entry),
      request.keepTokens,
    );
    if (start === 0) return { kind: 'nothing' };
    const toSummarise = candidates.slice(0, start);
    const usage: UsageReport[] = [];
    const maxOutputTokens = Math.max(256, Math.min(2_000, Math.floor(request.inputBudget * 0.15)));
    let next = 0;
    let written: SummaryRecord | null = null;
    while (next < toSummarise.length) {
      const previousText = previous?.text ?? null;
      const room =
        request.inputBudget -
        countTokens(SUMMARY_SYSTEM_PROMPT) -
        (previousText === null ? 0 : countTokens(previousText)) -
        maxOutputTokens -
        PROMPT_SLACK_TOKENS;
      const chunk = chunkFrom(toSummarise, next, Math.max(room, 500));
      next += Math.max(1, chunk.count);
      if (chunk.lines.length === 0) continue;
      const output = await request.summariser.summarise(
        {
          system: SUMMARY_SYSTEM_PROMPT,
          prompt: summaryPrompt(previousText, chunk.lines),
          previous: previousText,
          messages: chunk.messages,
          maxOutputTokens,
        },
        request.signal,
      );
      if (output.usage !== null) usage.push(output.usage);
      if (request.signal.aborted) return { kind: 'stopped', usage };
      const last = toSummarise[next - 1] as Candidate;
      const first = previous === null ? (toSummarise[0] as Candidate).item : null;
      written = this.record(request, previous, { first, last: last.item, text: output.text, usage: output.usage });
      previous = written;
    }
    return written === null ? { kind: 'nothing' } : { kind: 'compacted', summary: written, usage };
  }

  /** The session's items after `afterPosition` that the model sees, oldest first. */
  private itemsAfter(sessionId: string, afterPosition: number): Candidate[] {
    const newestFirst: Candidate[] = [];
    let before: number | null = null;
    for (;;) {
      const page = this.deps.stores.transcript.page(sessionId, before, READ_PAGE);
      let reachedSummary = false;
      for (let index = page.length - 1; index >= 0; index -= 1) {
        const item = page[index] as TranscriptItem;
        if (item.position <= afterPosition) {
          reachedSummary = true;
          break;
        }
        const message = historyMessageOf(item, this.deps.reveal);
        if (message !== null) newestFirst.push({ item, message, entry: entryOf(message) });
      }
      if (reachedSummary || page.length < READ_PAGE) break;
      before = (page[0] as TranscriptItem).position;
    }
    return newestFirst.reverse();
  }

  /** Writes a summary, its card and its ledger event in one transaction, then tells clients. */
  private record(
    request: CompactRequest,
    previous: SummaryRecord | null,
    part: { first: TranscriptItem | null; last: TranscriptItem; text: string; usage: UsageReport | null },
  ): SummaryRecord {
    const { stores, clock, ids, bus } = this.deps;
    const { sessionId, turnId, runId } = request;
    const { item, summary } = stores.transaction(() => {
      const now = clock.now();
      const firstPosition = previous?.firstPosition ?? part.first?.position ?? part.last.position;
      const summary = stores.summaries.insert({
        summaryId: ids.next('summary'),
        sessionId,
        firstPosition,
        lastPosition: part.last.position,
        firstItemId: previous?.firstItemId ?? part.first?.itemId ?? part.last.itemId,
        firstTurn: 1,
        lastTurn: Math.max(1, stores.summaries.userMessagesThrough(sessionId, part.last.position)),
        text: part.text,
        previousSummaryId: previous?.summaryId ?? null,
        turnId,
        runId,
        inputTokens: part.usage?.inputTokens ?? 0,
        outputTokens: part.usage?.outputTokens ?? 0,
        summaryTokens: countTokens(part.text),
        createdAt: now,
      });
      const item = appendSummaryCard(stores, ids, summary, 'cairn', now);
      return { item, summary };
    });
    bus.publish({ kind: 'transcript.appended', item } satisfies ChangeEventBody);
    return summary;
  }
}

/** The "Earlier conversation summarised" card and the ledger event of a summary; call inside a transaction. */
export function appendSummaryCard(
  stores: Stores,
  ids: Ids,
  summary: SummaryRecord,
  by: 'cairn' | 'codex',
  now: number,
): TranscriptItem {
  const data: CompactionNoticeData = {
    compaction: {
      summaryId: summary.summaryId,
      firstItemId: summary.firstItemId,
      firstTurn: summary.firstTurn,
      lastTurn: summary.lastTurn,
      text: summary.text,
      by,
    },
  };
  const item = stores.transcript.append(
    {
      sessionId: summary.sessionId,
      itemId: ids.next('item'),
      turnId: summary.turnId,
      runId: summary.runId,
      kind: 'notice',
      text: SUMMARY_CARD_TEXT,
      state: 'final',
      data: { ...data },
      now,
    },
    stores.sessions.reservePositions(summary.sessionId, 1),
  );
  stores.ledger.append(
    summary.runId,
    [
      {
        kind: 'context_compacted',
        payload: {
          summaryId: summary.summaryId,
          itemId: item.itemId,
          firstPosition: summary.firstPosition,
          lastPosition: summary.lastPosition,
        },
      },
    ],
    now,
  );
  return item;
}

/** What an item costs in a request, about as the assembler counts it (a large output is offloaded). */
function entryOf(message: HistoryMessage): RangeEntry {
  const dataTokens = message.data === null ? 0 : Math.min(countValueTokens(message.data), OFFLOAD_TOKENS / 3);
  return {
    role: message.role,
    toolCallId: typeof message.data?.toolCallId === 'string' ? message.data.toolCallId : null,
    tokens: countTokens(message.text) + dataTokens + MESSAGE_OVERHEAD_TOKENS,
  };
}

/** The rendered lines from `from` on that fit `room` tokens (at least one, clipped to fit). */
function chunkFrom(
  candidates: readonly Candidate[],
  from: number,
  room: number,
): { lines: string[]; messages: HistoryMessage[]; count: number } {
  const lines: string[] = [];
  const messages: HistoryMessage[] = [];
  let used = 0;
  let index = from;
  for (; index < candidates.length; index += 1) {
    const candidate = candidates[index] as Candidate;
    let line = renderForSummary(candidate.message);
    if (line === null) continue;
    let tokens = countTokens(line) + 1;
    if (used + tokens > room) {
      if (lines.length > 0) break;
      line = line.slice(0, room * 3);
      tokens = room;
    }
    lines.push(line);
    messages.push(candidate.message);
    used += tokens;
  }
  return { lines, messages, count: index - from };
}
