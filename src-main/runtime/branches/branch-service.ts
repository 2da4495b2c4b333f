import type { BranchMode, BranchRequestMode, SessionBranches } from '../../../src-shared/branch-model';
import { fail, ok, type Outcome } from '../../../src-shared/errors';
import type { ConflictResolution, RewindPlan, RewindResult } from '../../../src-shared/checkpoint-model';
import type { SessionRecord, TurnSummary } from '../../../src-shared/model';
import { WORKHUB_SESSION_ID } from '../../../src-shared/workhub-model';
import type { BranchCut, BranchRecord } from '../../storage/branch-store';
import { publicChangeSet } from '../../storage/checkpoint-store';
import type { Stores } from '../../storage/stores';
import type { EventBus } from '../ports/event-bus';
import type { AdmissionGate } from '../lifecycle/admission-gate';
import type { Clock, Ids, Logger } from '../ports/ports';
import type { CheckpointService } from '../checkpoints/checkpoint-service';
import { branchTitle } from '../sessions/session-title';
import type { TurnService } from '../turns/turn-service';
import { turnVersions } from './turn-versions';

export interface BranchServiceDeps {
  readonly stores: Stores;
  readonly bus: EventBus;
  readonly clock: Clock;
  readonly ids: Ids;
  readonly logger: Logger;
  readonly admission: AdmissionGate;
  readonly turns: TurnService;
  /** Puts a rewind's files back (Rewind to here). */
  readonly checkpoints: Pick<CheckpointService, 'rewind' | 'rewindPlan'>;
  /** Transcript items copied per transaction (the host answers other calls between chunks). */
  readonly chunkSize?: number;
}

export interface BranchRequest {
  readonly sessionId: string;
  readonly atItemId: string;
  readonly mode: BranchRequestMode;
  readonly text?: string | undefined;
  readonly requestId: string;
}

export interface RewindRequest {
  readonly sessionId: string;
  /** The person's message whose turn is rewound to. */
  readonly atItemId: string;
  readonly requestId: string;
  readonly resolution?: ConflictResolution | undefined;
}

type BranchResult = { session: SessionRecord; turn: TurnSummary | null; created: boolean };

const DEFAULT_CHUNK = 500;

/**
 * Edit, Regenerate and Rewind: a branch is a new session holding the source's conversation before the
 * turn of the chosen message, which then runs the edited message (or the same request again; a
 * rewind's branch runs nothing, its files are put back by the checkpoints). The branch
 * row and the empty session commit first; the transcript is copied in chunks, each its own
 * transaction, and the last chunk marks the branch ready. A replayed request finishes an unfinished
 * copy and returns the same branch; recovery finishes (or, its source gone, removes) a copy a crash
 * interrupted. The branch's turn is started only by a request, never by recovery.
 */
export class BranchService {
  constructor(private readonly deps: BranchServiceDeps) {}

  async branch(
    request: BranchRequest,
  ): Promise<
    Outcome<
      BranchResult,
      | 'host_draining'
      | 'invalid_input'
      | 'not_found'
      | 'operation_conflict'
      | 'operation_unavailable'
      | 'session_busy'
      | 'storage_damaged'
    >
  > {
    const { stores } = this.deps;
    const replay = stores.branches.byRequest(request.requestId);
    if (replay !== null) {
      if (
        replay.sourceSessionId !== request.sessionId ||
        replay.sourceItemId !== request.atItemId ||
        replay.mode !== request.mode
      ) {
        return fail('operation_conflict', 'A different branch was already made with this request id.');
      }
      return this.finishAndRun(replay, false);
    }
    if (request.sessionId === WORKHUB_SESSION_ID)
      return fail('operation_unavailable', 'The WorkHub cannot be branched; branch the session it routed the work to.');
    const source = stores.sessions.get(request.sessionId);
    if (source === null) return fail('not_found', 'That session does not exist. It may have been deleted.');
    const cut = stores.branches.cutAt(request.sessionId, request.atItemId);
    if (cut === null) return fail('not_found', 'That message is not in this session.');
    let text: string;
    if (request.mode === 'edit') {
      if (cut.kind !== 'user_message')
        return fail('invalid_input', 'Only your own messages can be edited; use Regenerate on an answer.');
      if (request.text === undefined) return fail('invalid_input', 'An edit needs the new text of the message.');
      text = request.text;
    } else {
      if (cut.kind !== 'assistant_message')
        return fail('invalid_input', 'Only an answer of the agent can be regenerated; use Edit on your own message.');
      if (request.text !== undefined)
        return fail(
          'invalid_input',
          'Regenerate sends the same request again; to change it, use Edit on your message.',
        );
      text = cut.turnText;
    }
    const refused = this.deps.admission.refusal();
    if (refused !== null) return refused;
    return this.finishAndRun(this.create(source, request.atItemId, cut, request.mode, text, request.requestId), true);
  }

  /**
   * Rewind to here: conversation and files back to before the turn of the person's message
   * `atItemId`. The files of every later turn go back first (a conflict, unless `resolution` says
   * what to do, changes nothing); the conversation before the turn becomes a branch that runs
   * nothing, so the source keeps the rewound turns. The files are recorded as the branch's change
   * set, so the rewind can be undone. Idempotent on `requestId`.
   */
  async rewind(
    request: RewindRequest,
  ): Promise<
    Outcome<
      RewindResult,
      | 'host_draining'
      | 'invalid_input'
      | 'not_found'
      | 'operation_conflict'
      | 'operation_unavailable'
      | 'session_busy'
      | 'storage_damaged'
    >
  > {
    const { stores } = this.deps;
    const replay = stores.branches.byRequest(request.requestId);
    if (replay !== null) {
      if (
        replay.mode !== 'rewind' ||
        replay.sourceSessionId !== request.sessionId ||
        replay.sourceItemId !== request.atItemId
      ) {
        return fail('operation_conflict', 'A different branch was already made with this request id.');
      }
      const made = await this.finishAndRun(replay, false);
      if (!made.ok) return made;
      const rewind =
        stores.checkpoints.list(replay.sessionId).find((changeSet) => changeSet.origin === 'rewind') ?? null;
      return ok({
        status: 'rewound',
        session: made.result.session,
        rewind: rewind === null ? null : publicChangeSet(rewind),
      });
    }
    const point = this.rewindPoint(request.sessionId, request.atItemId);
    if (!point.ok) return point;
    const { source, cut, since } = point.result;
    const refused = this.deps.admission.refusal();
    if (refused !== null) return refused;
    return this.deps.checkpoints.rewind({
      sessionId: request.sessionId,
      turnId: cut.turnId,
      since,
      resolution: request.resolution,
      branch: async () => {
        const made = await this.finishAndRun(
          this.create(source, request.atItemId, cut, 'rewind', cut.turnText, request.requestId),
          true,
        );
        return made.ok ? ok(made.result.session) : made;
      },
    });
  }

  /** What Rewind to here at the person's message `atItemId` would do to the files, without doing it. */
  async rewindPlan(request: {
    sessionId: string;
    atItemId: string;
  }): Promise<Outcome<RewindPlan, 'invalid_input' | 'not_found' | 'operation_unavailable' | 'session_busy'>> {
    const point = this.rewindPoint(request.sessionId, request.atItemId);
    if (!point.ok) return point;
    return this.deps.checkpoints.rewindPlan({ sessionId: request.sessionId, since: point.result.since });
  }

  /** The session, the cut and the time a rewind to before the person's message `atItemId` goes back to. */
  private rewindPoint(
    sessionId: string,
    atItemId: string,
  ): Outcome<
    { source: SessionRecord; cut: BranchCut; since: number },
    'invalid_input' | 'not_found' | 'operation_unavailable'
  > {
    const { stores } = this.deps;
    if (sessionId === WORKHUB_SESSION_ID) return fail('operation_unavailable', 'The WorkHub cannot be rewound.');
    const source = stores.sessions.get(sessionId);
    if (source === null) return fail('not_found', 'That session does not exist. It may have been deleted.');
    const cut = stores.branches.cutAt(sessionId, atItemId);
    if (cut === null) return fail('not_found', 'That message is not in this session.');
    if (cut.kind !== 'user_message')
      return fail('invalid_input', 'Rewind goes back to before one of your own messages.');
    const turn = stores.turns.getTurn(sessionId, cut.turnId);
    if (turn === null) return fail('not_found', 'That message is not in this session.');
    return ok({ source, cut, since: turn.createdAt });
  }

  /** Commits the branch row, its empty session and its copied turns (the items follow in chunks). */
  private create(
    source: SessionRecord,
    atItemId: string,
    cut: BranchCut,
    mode: BranchMode,
    text: string,
    requestId: string,
  ): BranchRecord {
    const { stores } = this.deps;
    const now = this.deps.clock.now();
    return stores.transaction(() => {
      const session = stores.sessions.insert({
        sessionId: this.deps.ids.next('session'),
        title: branchTitle(source.title, mode),
        titleSource: 'auto',
        workspacePath: source.workspacePath,
        connectionId: source.connectionId,
        model: source.model,
        permissionMode: source.permissionMode,
        now,
      });
      stores.branches.insert({
        sessionId: session.sessionId,
        requestId: requestId,
        sourceSessionId: source.sessionId,
        sourceItemId: atItemId,
        sourceTurnId: cut.turnId,
        cutPosition: cut.cutPosition,
        cutOrdinal: cut.cutOrdinal,
        mode,
        text,
        turnId: requestId,
        now,
      });
      const record = stores.branches.get(session.sessionId);
      if (record === null) throw new Error('The branch vanished after insert');
      stores.branches.copyTurns(record);
      return record;
    });
  }

  /** Where a session branched from, the branches made from it, and the versions of its turns across its branch family. */
  branches(sessionId: string): Outcome<SessionBranches, 'not_found'> {
    const { stores } = this.deps;
    if (stores.sessions.get(sessionId) === null)
      return fail('not_found', 'That session does not exist. It may have been deleted.');
    const versions = turnVersions(sessionId, stores.branches.family(sessionId)).map((slot) => ({
      ...slot,
      versions: slot.versions.map((version) => ({
        ...version,
        ...stores.branches.turnMessages(version.sessionId, version.turnId),
      })),
    }));
    return ok({
      branchedFrom: stores.branches.origin(sessionId),
      branches: stores.branches.branchesOf(sessionId),
      versions,
    });
  }

  /** At start, before serving: finishes each copy a crash interrupted, or removes it when its source is gone. */
  recover(): { finished: number; removed: number } {
    const report = { finished: 0, removed: 0 };
    for (const branch of this.deps.stores.branches.copying()) {
      if (this.copyChunksNow(branch)) report.finished += 1;
      else report.removed += 1;
    }
    if (report.finished + report.removed > 0)
      this.deps.logger.info('Finished branch copies a previous run left unfinished', report);
    return report;
  }

  private async finishAndRun(branch: BranchRecord, created: boolean): Promise<Outcome<BranchResult, 'not_found'>> {
    const { stores, bus } = this.deps;
    if (branch.state === 'copying') {
      const chunk = this.deps.chunkSize ?? DEFAULT_CHUNK;
      for (;;) {
        if (stores.sessions.get(branch.sourceSessionId) === null) {
          this.discard(branch);
          return fail('not_found', 'The session being branched was deleted while it was copied.');
        }
        const copied = stores.transaction(() => stores.branches.copyItems(branch, chunk));
        if (copied < chunk) break;
        // Let other calls in between chunks of a long conversation.
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
    }
    const session = stores.sessions.get(branch.sessionId);
    if (session === null) return fail('not_found', 'This branch was deleted.');
    bus.publish({ kind: 'session.changed', session });
    bus.publish({ kind: 'session.branched', sessionId: branch.sessionId, sourceSessionId: branch.sourceSessionId });
    if (branch.mode === 'rewind') return ok({ session, turn: null, created });
    const started = this.deps.turns.start({ sessionId: branch.sessionId, turnId: branch.turnId, text: branch.text });
    if (!started.ok) {
      // The branch stands (it is committed); its turn can be sent again from it.
      this.deps.logger.warn('A branch was made but its turn did not start', {
        sessionId: branch.sessionId,
        code: started.error.code,
      });
    }
    return ok({
      session: stores.sessions.get(branch.sessionId) ?? session,
      turn: started.ok ? started.result.turn : null,
      created,
    });
  }

  /** Copies every remaining chunk synchronously; false (and the branch removed) when its source is gone. */
  private copyChunksNow(branch: BranchRecord): boolean {
    const { stores } = this.deps;
    if (stores.sessions.get(branch.sourceSessionId) === null) {
      this.discard(branch);
      return false;
    }
    const chunk = this.deps.chunkSize ?? DEFAULT_CHUNK;
    while (stores.transaction(() => stores.branches.copyItems(branch, chunk)) >= chunk);
    return true;
  }

  private discard(branch: BranchRecord): void {
    this.deps.stores.transaction(() => this.deps.stores.sessions.remove(branch.sessionId));
    this.deps.bus.publish({ kind: 'session.removed', sessionId: branch.sessionId });
  }
}
