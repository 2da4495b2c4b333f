import type {
  AgentContext,
  PermissionOption,
  SessionUpdate,
  StopReason,
  ToolCallContent,
} from '@agentclientprotocol/sdk';
import type { ChangeEvent } from '../../src-shared/events';
import type { InteractionRecord, PermissionDecision } from '../../src-shared/interaction-model';
import { isActiveStatus, type TranscriptItemKind, type TurnSummary } from '../../src-shared/model';
import type { LocalHostClient } from '../host-client/local-host-client';
import type { ReplayedItem } from './session-replay';
import { toolTitle, updateForDelta, updateForItem, type UpdateSource } from './transcript-updates';

/** The choices an editor offers for one of Cairn's approvals, each the decision it answers with. */
const PERMISSION_OPTIONS: readonly (PermissionOption & { readonly decision: PermissionDecision })[] = [
  { optionId: 'allow_once', name: 'Allow once', kind: 'allow_once', decision: 'allow_once' },
  { optionId: 'allow_session', name: 'Allow for this session', kind: 'allow_always', decision: 'allow_session' },
  { optionId: 'deny', name: 'Deny', kind: 'reject_once', decision: 'deny' },
];

export interface PromptTurnDeps {
  readonly host: LocalHostClient;
  readonly client: AgentContext;
  readonly log: (line: string) => void;
}

/**
 * One of Cairn's turns in a session the editor has open, followed through the host's change events
 * until it ends: its transcript streamed as `session/update`s. For the editor's own `session/prompt`
 * (`own_prompt`), its approvals are asked of the editor too (and still answerable in Cairn's window:
 * the first answer wins, and the editor's question is withdrawn when Cairn's window answered first).
 * A turn started elsewhere (Cairn's window, a goal, an automation, another editor) is only shown,
 * the person's message first: its approvals stay on Cairn's card, where the turn was started.
 */
export class PromptTurn {
  private readonly kinds = new Map<string, TranscriptItemKind>();
  private readonly asking = new Map<string, AbortController>();
  private titled: string | null = null;
  private finish: ((turn: TurnSummary) => void) | null = null;
  readonly ended: Promise<TurnSummary>;
  /** Updates are sent in order: each waits for the one before it. */
  private sending: Promise<void> = Promise.resolve();
  /** What `session/load` sent of this turn already, known once its replay is done. */
  private replayed: ReadonlyMap<string, ReplayedItem> = new Map();

  /**
   * `replay`: the editor is loading the session: nothing is sent before its replay is, and nothing
   * the replay sent is sent again (an item's text carries on from where the replay left it).
   */
  constructor(
    private readonly deps: PromptTurnDeps,
    readonly sessionId: string,
    readonly turnId: string,
    private readonly source: Exclude<UpdateSource, 'replay'> = 'own_prompt',
    replay?: Promise<ReadonlyMap<string, ReplayedItem>>,
  ) {
    this.ended = new Promise((resolve) => (this.finish = resolve));
    if (replay !== undefined)
      this.sending = replay.then(
        (replayed) => {
          this.replayed = replayed;
          for (const [itemId, item] of replayed) if (item.turnId === turnId) this.kinds.set(itemId, item.kind);
        },
        () => undefined,
      );
  }

  /** A change event from the host; those of other sessions and turns are ignored. */
  onEvent(event: ChangeEvent) {
    switch (event.kind) {
      case 'transcript.appended': {
        const { item } = event;
        if (item.turnId !== this.turnId) return;
        this.kinds.set(item.itemId, item.kind);
        return this.send(() => (this.replayed.has(item.itemId) ? null : updateForItem(item, this.source)));
      }
      case 'transcript.delta': {
        if (event.sessionId !== this.sessionId) return;
        const { itemId, text, length } = event;
        // Decided when its turn to be sent comes: a replay before it may have sent some of it.
        return this.send(() => {
          const kind = this.kinds.get(itemId);
          if (kind === undefined) return null;
          const unsent = length - (this.replayed.get(itemId)?.length ?? 0);
          return updateForDelta(kind, itemId, unsent <= 0 ? '' : [...text].slice(-unsent).join(''));
        });
      }
      case 'session.changed':
        // The session's title (Cairn's first-line or model-written one) names the editor's thread too.
        if (event.session.sessionId !== this.sessionId || event.session.title === this.titled) return;
        this.titled = event.session.title;
        return this.send(() => ({ sessionUpdate: 'session_info_update', title: event.session.title }));
      case 'interaction.changed':
        if (event.interaction.turnId !== this.turnId || this.source !== 'own_prompt') return;
        return this.onInteraction(event.interaction);
      case 'turn.changed':
        if (event.turn.turnId !== this.turnId || isActiveStatus(event.turn.status)) return;
        this.withdrawAll();
        void this.sending.then(() => this.finish?.(event.turn));
        return;
      default:
        return;
    }
  }

  /** The host's connection closed under the turn: it is reported as ended. */
  abandon(turn: TurnSummary) {
    this.withdrawAll();
    this.finish?.(turn);
  }

  /** Queues an update, made when the ones before it are sent (null: nothing to send). */
  private send(update: () => SessionUpdate | null) {
    const { client, log } = this.deps;
    this.sending = this.sending
      .then(async () => {
        const made = update();
        if (made !== null) await client.notify('session/update', { sessionId: this.sessionId, update: made });
      })
      .catch((error: unknown) => log(`Could not send an update to the editor: ${String(error)}`));
  }

  private onInteraction(interaction: InteractionRecord) {
    if (interaction.status !== 'pending') {
      // Answered in Cairn's window (or closed by Stop): the editor's question is withdrawn.
      this.asking.get(interaction.interactionId)?.abort(new Error('Answered in Cairn'));
      this.asking.delete(interaction.interactionId);
      return;
    }
    if (interaction.request.kind !== 'permission' || this.asking.has(interaction.interactionId)) return;
    void this.askEditor(interaction);
  }

  private async askEditor(interaction: InteractionRecord) {
    if (interaction.request.kind !== 'permission') return;
    const { host, client, log } = this.deps;
    const request = interaction.request;
    const withdraw = new AbortController();
    this.asking.set(interaction.interactionId, withdraw);
    await this.sending; // the tool call it is about has reached the editor first
    let response;
    try {
      response = await client.request(
        'session/request_permission',
        {
          sessionId: this.sessionId,
          toolCall: {
            toolCallId: interaction.toolCallId,
            title: request.summary || toolTitle(request.toolName, null),
            status: 'pending',
            content: previewContent(request.preview),
          },
          options: PERMISSION_OPTIONS.map(({ decision: _decision, ...option }) => option),
        },
        { cancellationSignal: withdraw.signal, stopWaitingOnCancel: true },
      );
    } catch {
      return; // withdrawn (answered in Cairn's window), or the editor went away: the card stays in Cairn
    } finally {
      this.asking.delete(interaction.interactionId);
    }
    if (response.outcome.outcome !== 'selected') return; // the editor cancelled its prompt: Stop follows
    const selected = response.outcome.optionId;
    const decision = PERMISSION_OPTIONS.find((option) => option.optionId === selected)?.decision ?? 'deny';
    const answered = await host.invoke('interaction.answer', {
      interactionId: interaction.interactionId,
      answer: { action: 'accept', decision },
    });
    if (!answered.ok) log(`The editor's answer was not taken: ${answered.error.message}`);
  }

  private withdrawAll() {
    for (const withdraw of this.asking.values()) withdraw.abort(new Error('The turn ended'));
    this.asking.clear();
  }
}

/** What the approval card shows, for the editor: the diff or the command. */
function previewContent(
  preview: Extract<InteractionRecord['request'], { kind: 'permission' }>['preview'],
): ToolCallContent[] {
  const text =
    preview.kind === 'diff'
      ? `${preview.path}\n\n\`\`\`diff\n${preview.diff}\n\`\`\``
      : preview.kind === 'command'
        ? `\`\`\`sh\n${preview.command}\n\`\`\`\nin ${preview.cwd}`
        : `${preview.server} → ${preview.tool}\n\n\`\`\`json\n${preview.arguments}\n\`\`\``;
  return [{ type: 'content', content: { type: 'text', text } }];
}

/** How a turn's end reads to the editor. */
export function stopReasonOf(turn: TurnSummary): StopReason {
  if (turn.status === 'cancelled') return 'cancelled';
  if (turn.latestRun.terminalReason === 'max_steps') return 'max_turn_requests';
  return 'end_turn';
}
