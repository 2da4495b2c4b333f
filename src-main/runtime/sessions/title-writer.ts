import type { ChangeEvent } from '../../../src-shared/events';
import type { TurnSummary } from '../../../src-shared/model';
import type { Stores } from '../../storage/stores';
import type { EventBus } from '../ports/event-bus';
import type { Clock, Logger } from '../ports/ports';
import { cleanTitle } from './clean-title';
import type { ModelStepEvent, ModelStepRequest, ModelUsage, ProviderTarget } from '../connections/providers';

export interface TitleWriterDeps {
  readonly stores: Stores;
  readonly bus: EventBus;
  readonly clock: Clock;
  readonly logger: Logger;
  /** Whether the connection's turns run on the built-in agent over a model (not the demo, Codex or the WorkHub). */
  usesModel(connectionId: string): boolean;
  resolveTarget(connectionId: string, model: string | null): ProviderTarget | { error: string };
  streamStep(request: ModelStepRequest): AsyncIterable<ModelStepEvent>;
  costOf(target: ProviderTarget, usage: ModelUsage): { usd: number } | null;
  /** Whether new work may start (closed once shutdown begins). */
  isOpen(): boolean;
}

const EXCERPT = 1500;
const TITLE_PROMPT =
  'You name conversations. Reply with only a short title (2 to 6 words) that names the work in the conversation below, ' +
  'in the language of the conversation: no quotes, no trailing punctuation, no "Title:".';

/**
 * After a session's first exchange on a real model, asks that model for a short title (one cheap
 * call, recorded in usage on the turn's run) and sets it, unless the person has named the session
 * meanwhile. The first-line title set when the turn started stays when the call fails or when the
 * session runs on the Offline demo.
 */
export class TitleWriter {
  private readonly inFlight = new Map<string, AbortController>();

  constructor(private readonly deps: TitleWriterDeps) {}

  onEvent(event: ChangeEvent): void {
    if (event.kind !== 'turn.changed' || event.turn.status !== 'completed') return;
    const turn = event.turn;
    if (this.inFlight.has(turn.sessionId) || !this.deps.isOpen()) return;
    const session = this.deps.stores.sessions.get(turn.sessionId);
    if (session === null || session.titleSource !== 'auto' || !this.deps.usesModel(session.connectionId)) return;
    const first = this.deps.stores.transcript.page(turn.sessionId, 1, 1)[0];
    if (first === undefined || first.turnId !== turn.turnId) return;
    const target = this.deps.resolveTarget(session.connectionId, session.model);
    if ('error' in target) return;
    const controller = new AbortController();
    this.inFlight.set(turn.sessionId, controller);
    void this.write(turn, session.connectionId, target, controller.signal)
      .catch((error: unknown) =>
        this.deps.logger.warn('The session title could not be written; keeping the first-line title', {
          sessionId: turn.sessionId,
          error: String(error),
        }),
      )
      .finally(() => this.inFlight.delete(turn.sessionId));
  }

  /** Ends the title calls under way (at shutdown). */
  abortAll(): void {
    for (const controller of this.inFlight.values()) controller.abort(new Error('Cairn is shutting down'));
  }

  private async write(
    turn: TurnSummary,
    connectionId: string,
    target: ProviderTarget,
    signal: AbortSignal,
  ): Promise<void> {
    const { stores, clock, bus } = this.deps;
    const exchange = stores.transcript
      .page(turn.sessionId, null, 40)
      .filter(
        (item) => item.turnId === turn.turnId && (item.kind === 'user_message' || item.kind === 'assistant_message'),
      )
      .map((item) => `${item.kind === 'user_message' ? 'Person' : 'Agent'}: ${item.text.slice(0, EXCERPT)}`)
      .join('\n\n');
    let text = '';
    for await (const event of this.deps.streamStep({
      target,
      system: TITLE_PROMPT,
      messages: [{ role: 'user', text: exchange }],
      tools: [],
      signal,
      maxOutputTokens: 32,
    })) {
      if (event.type === 'text_delta') text += event.text;
      else if (event.type === 'finish') {
        stores.usage.record({
          sessionId: turn.sessionId,
          turnId: turn.turnId,
          runId: turn.latestRun.runId,
          connectionId,
          modelId: target.modelId,
          ...event.usage,
          latencyMs: event.latencyMs,
          costUsd: this.deps.costOf(target, event.usage)?.usd ?? null,
          recordedAt: clock.now(),
        });
      }
    }
    const title = cleanTitle(text);
    if (title === null) throw new Error('The model gave no usable title');
    const session = stores.transaction(() => {
      const current = stores.sessions.get(turn.sessionId);
      if (current === null || current.titleSource !== 'auto') return null;
      stores.sessions.setTitle(turn.sessionId, title, 'auto', clock.now());
      return stores.sessions.get(turn.sessionId);
    });
    if (session !== null) bus.publish({ kind: 'session.changed', session });
  }
}
