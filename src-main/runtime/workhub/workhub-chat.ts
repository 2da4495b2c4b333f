import type { ChangeEventBody } from '../../../src-shared/events';
import type { FormRequest } from '../../../src-shared/interaction-model';
import type { TranscriptItemKind } from '../../../src-shared/model';
import { WORKHUB_SESSION_ID } from '../../../src-shared/workhub-model';
import type { Stores } from '../../storage/stores';
import type { EventBus } from '../ports/event-bus';
import type { Clock, Ids } from '../ports/ports';
import { endRun, openTurn, suspendRun, turnAndSessionEvents } from '../turns/run-lifecycle';

export interface WorkHubChatDeps {
  readonly stores: Stores;
  readonly bus: EventBus;
  readonly clock: Clock;
  readonly ids: Ids;
}

/** Writes the WorkHub's own chat: the person's requests with what it made of them, its answers, and the forms it puts up. */
export class WorkHubChat {
  constructor(private readonly deps: WorkHubChatDeps) {}

  /** The WorkHub answers in its own chat, under the request it answers (else its latest). */
  say(text: string, requestId?: string): void {
    const latest =
      (requestId === undefined ? null : this.deps.stores.turns.getTurn(WORKHUB_SESSION_ID, requestId)) ??
      this.deps.stores.turns.latestTurn(WORKHUB_SESSION_ID);
    if (latest === null) {
      this.recordTurn(this.deps.ids.next('item'), text, []);
      return;
    }
    const { stores, clock, ids, bus } = this.deps;
    const events = stores.transaction(() => {
      const now = clock.now();
      const item = stores.transcript.append(
        {
          sessionId: WORKHUB_SESSION_ID,
          itemId: ids.next('item'),
          turnId: latest.turnId,
          runId: latest.latestRun.runId,
          kind: 'assistant_message',
          text,
          state: 'final',
          now,
        },
        stores.sessions.reservePositions(WORKHUB_SESSION_ID, 1),
      );
      stores.sessions.touch(WORKHUB_SESSION_ID, now);
      return [
        { kind: 'transcript.appended', item } as ChangeEventBody,
        ...turnAndSessionEvents(stores, WORKHUB_SESSION_ID, latest.turnId),
      ];
    });
    for (const event of events) bus.publish(event);
  }

  /**
   * Records a WorkHub turn without running an agent: the person's message and what the WorkHub made
   * of it; with `waitFor`, the turn waits on a form (its answer continues it in the coordination backend).
   */
  recordTurn(
    turnId: string,
    text: string,
    items: ReadonlyArray<{ kind: TranscriptItemKind; text: string; data: Record<string, unknown> }>,
    waitFor?: { toolCallId: string; input: Record<string, unknown>; request: FormRequest },
  ): string | null {
    const { stores, clock, ids, bus } = this.deps;
    const runId = ids.next('run');
    let interactionId: string | null = null;
    const events = stores.transaction(() => {
      const now = clock.now();
      const published: ChangeEventBody[] = [];
      const run = { sessionId: WORKHUB_SESSION_ID, turnId, runId };
      openTurn(stores, { ...run, origin: 'user', text, maxSteps: 1 }, { origin: 'workhub' }, now);
      const append = (kind: TranscriptItemKind, body: string, data: Record<string, unknown> | null) => {
        const item = stores.transcript.append(
          {
            sessionId: WORKHUB_SESSION_ID,
            itemId: ids.next('item'),
            turnId,
            runId,
            kind,
            text: body,
            state: 'final',
            data,
            now,
          },
          stores.sessions.reservePositions(WORKHUB_SESSION_ID, 1),
        );
        published.push({ kind: 'transcript.appended', item });
        return item;
      };
      // A choice form is the WorkHub asking, not the person speaking.
      append(waitFor === undefined ? 'user_message' : 'assistant_message', text, null);
      for (const item of items) append(item.kind, item.text, item.data);
      stores.ledger.append(runId, [{ kind: 'user_message', payload: { text } }], now);
      if (waitFor === undefined) {
        published.push(...(endRun(stores, run, { status: 'completed', terminalReason: 'end_turn' }, now) ?? []));
      } else {
        const interaction = stores.interactions.insert({
          interactionId: ids.next('interaction'),
          sessionId: WORKHUB_SESSION_ID,
          turnId,
          runId,
          toolCallId: waitFor.toolCallId,
          request: waitFor.request,
          now,
        });
        interactionId = interaction.interactionId;
        append('tool_call', 'ask_user', {
          toolCallId: waitFor.toolCallId,
          toolName: 'ask_user',
          input: waitFor.input,
          interactionId,
        });
        suspendRun(stores, run, { interactionId, request: waitFor.request }, now);
        const { answerSecretId: _secret, ...record } = interaction;
        published.push({ kind: 'interaction.changed', interaction: record });
      }
      stores.sessions.touch(WORKHUB_SESSION_ID, now);
      published.push(...turnAndSessionEvents(stores, WORKHUB_SESSION_ID, turnId));
      return published;
    });
    for (const event of events) bus.publish(event);
    return interactionId;
  }
}
