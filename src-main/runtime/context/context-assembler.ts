import type { TranscriptItem } from '../../../src-shared/model';
import type { TranscriptStore } from '../../storage/transcript-store';
import type { HistoryMessage } from '../contract/agent-backend';
import { historyMessageOf, type RevealToolOutput } from './history-items';
import type { OffloadStore } from './offload';
import { countTokens, countValueTokens } from './token-count';

/** A tool result larger than this (in tokens) reaches the model as head, tail and a handle. */
export const OFFLOAD_TOKENS = 8_000;
const HEAD_CHARS = 6_000;
const TAIL_CHARS = 2_000;
/** What a message costs beyond its text in a provider's chat format (role, separators, ids). */
export const MESSAGE_OVERHEAD_TOKENS = 8;
const PAGE_SIZE = 64;
/** Cached counts kept before the cache starts over (each is a few dozen bytes). */
const CACHE_LIMIT = 50_000;

export interface ContextAssemblerDeps {
  readonly transcript: Pick<TranscriptStore, 'page'>;
  readonly offload: OffloadStore;
  readonly reveal?: RevealToolOutput;
  readonly offloadTokens?: number;
  readonly pageSize?: number;
}

export interface AssemblyRequest {
  readonly sessionId: string;
  /** The person's request this turn answers: always sent, even when older turns are left out. */
  readonly turnId: string;
  readonly turnText: string;
  /** Tokens the history may take. */
  readonly budget: number;
  /** Scales our token estimate toward the provider's own count (1 for OpenAI). */
  readonly factor: number;
  /** Items at or before this position are covered by a summary and not read (compaction). */
  readonly afterPosition?: number;
}

export interface AssembledHistory {
  /** Oldest first, as the backend turns it into a conversation. */
  readonly history: HistoryMessage[];
  /** Estimated tokens of the history (scaled by the factor). */
  readonly tokens: number;
  /** Of which tool results (calls and results). */
  readonly toolTokens: number;
  /** Whether older messages were left out to fit the budget. */
  readonly trimmed: boolean;
}

interface Entry {
  readonly message: HistoryMessage;
  readonly tokens: number;
}

/**
 * Builds the history a model step sends, newest first until the budget is spent, reading the
 * transcript a page at a time from its end. Each item's model view and token count are cached, so
 * the cost of a step follows the size of the window, not the length of the session.
 *
 * The cut never separates a tool call from its result: the kept part starts at a person's message
 * where it can, and a result whose call was left out is left out too. The turn's own request is
 * always kept.
 */
export class ContextAssembler {
  private readonly cache = new Map<string, Entry | null>();
  private readonly offloadTokens: number;
  private readonly pageSize: number;

  constructor(private readonly deps: ContextAssemblerDeps) {
    this.offloadTokens = deps.offloadTokens ?? OFFLOAD_TOKENS;
    this.pageSize = deps.pageSize ?? PAGE_SIZE;
  }

  assemble(request: AssemblyRequest): AssembledHistory {
    const { sessionId, factor } = request;
    const scaled = (tokens: number) => Math.ceil(tokens * factor);
    const pinnedTokens = scaled(countTokens(request.turnText) + MESSAGE_OVERHEAD_TOKENS);
    const budget = request.budget - pinnedTokens;
    const newestFirst: Entry[] = [];
    let total = 0;
    let trimmed = false;
    let before: number | null = null;
    const after = request.afterPosition ?? -1;
    outer: for (;;) {
      const page: TranscriptItem[] = this.deps.transcript.page(sessionId, before, this.pageSize);
      for (let index = page.length - 1; index >= 0; index -= 1) {
        if ((page[index] as TranscriptItem).position <= after) break outer;
        const entry = this.entryOf(page[index] as TranscriptItem, sessionId);
        if (entry === null) continue;
        const tokens = scaled(entry.tokens);
        if (total + tokens > budget) {
          trimmed = true;
          break outer;
        }
        newestFirst.push(entry);
        total += tokens;
      }
      if (page.length < this.pageSize) break;
      before = (page[0] as TranscriptItem).position;
    }
    let kept = newestFirst.reverse();
    if (trimmed) kept = cleanCut(kept);
    const history = kept.map((entry) => entry.message);
    let tokens = kept.reduce((sum, entry) => sum + scaled(entry.tokens), 0);
    if (!history.some((message) => message.role === 'user' && message.turnId === request.turnId)) {
      history.unshift({ role: 'user', text: request.turnText, turnId: request.turnId, runId: '', data: null });
      tokens += pinnedTokens;
    }
    const toolTokens = kept.reduce(
      (sum, entry) =>
        entry.message.role === 'tool_result' || entry.message.role === 'tool_call' ? sum + scaled(entry.tokens) : sum,
      0,
    );
    return { history, tokens, toolTokens, trimmed };
  }

  /** The model's view of an item and its tokens; cached once the item is final. */
  private entryOf(item: TranscriptItem, sessionId: string): Entry | null {
    const cached = this.cache.get(item.itemId);
    if (cached !== undefined) return cached;
    const message = historyMessageOf(item, this.deps.reveal);
    const entry = message === null ? null : this.measure(message, sessionId);
    if (item.state === 'final') {
      if (this.cache.size >= CACHE_LIMIT) this.cache.clear();
      this.cache.set(item.itemId, entry);
    }
    return entry;
  }

  private measure(message: HistoryMessage, sessionId: string): Entry {
    if (message.role === 'tool_result' && message.data !== null) {
      const output = message.data.output;
      const text = typeof output === 'string' ? output : (JSON.stringify(output) ?? 'null');
      const outputTokens = countTokens(text);
      if (outputTokens > this.offloadTokens) {
        const offloaded = { ...message, data: { ...message.data, output: this.offloaded(text, sessionId) } };
        return { message: offloaded, tokens: countValueTokens(offloaded.data) + MESSAGE_OVERHEAD_TOKENS };
      }
      return { message, tokens: outputTokens + countTokens(message.text) + MESSAGE_OVERHEAD_TOKENS + 16 };
    }
    const dataTokens = message.data === null ? 0 : countValueTokens(message.data);
    return { message, tokens: countTokens(message.text) + dataTokens + MESSAGE_OVERHEAD_TOKENS };
  }

  /** Head, tail and a handle in place of an output too long to send whole. */
  private offloaded(text: string, sessionId: string): Record<string, unknown> {
    const stored = this.deps.offload.put(text, sessionId);
    if (!stored.ok) {
      // Without the store the output still reaches the model, cut to its start and end, saying why.
      return {
        truncated: true,
        totalChars: text.length,
        head: text.slice(0, HEAD_CHARS),
        tail: text.slice(-TAIL_CHARS),
        note: `This output is ${text.length} characters long; only its start and end are shown, and the rest cannot be read with read_output. ${stored.reason}`,
      };
    }
    const handle = stored.handle;
    return {
      offloaded: true,
      handle,
      totalChars: text.length,
      head: text.slice(0, HEAD_CHARS),
      tail: text.slice(-TAIL_CHARS),
      note: `This output is ${text.length} characters long; only its start and end are shown. Call read_output with { "handle": "${handle}", "offset": <character offset>, "limit": <characters> } to read more of it.`,
    };
  }
}

/**
 * Where a trimmed history may start: at the first message from the person if there is one, else at
 * the first item that is not a tool result; then results whose call was cut off are dropped.
 */
export function cleanCut<T extends { readonly message: HistoryMessage }>(entries: readonly T[]): T[] {
  let start = entries.findIndex((entry) => entry.message.role === 'user');
  if (start < 0)
    start = entries.findIndex((entry) => entry.message.role !== 'tool_result' && entry.message.role !== 'reasoning');
  if (start < 0) return [];
  const kept = entries.slice(start);
  const calls = new Set(
    kept.filter((entry) => entry.message.role === 'tool_call').map((entry) => String(entry.message.data?.toolCallId)),
  );
  return kept.filter(
    (entry) => entry.message.role !== 'tool_result' || calls.has(String(entry.message.data?.toolCallId)),
  );
}
