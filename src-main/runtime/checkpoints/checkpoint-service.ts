import type {
  ChangeFilesPage,
  ChangeSetRecord,
  ChangeWriter,
  ConflictResolution,
  FileDiff,
  ListedChangeSet,
  RevertResult,
  RewindPlan,
  RewindResult,
} from '../../../src-shared/checkpoint-model';
import { FILES_PAGE, LISTED_FILES } from '../../../src-shared/checkpoint-model';
import { fail, ok, type ErrorCode, type Outcome } from '../../../src-shared/errors';
import type { ChangeEvent } from '../../../src-shared/events';
import { isActiveStatus } from '../../../src-shared/model';
import type { Stores } from '../../storage/stores';
import { publicChangeSet, type StoredChangeSet } from '../../storage/checkpoint-store';
import type { EventBus } from '../ports/event-bus';
import type { Clock, Ids, Logger } from '../ports/ports';
import type { AgentTool } from '../contract/agent-tool';
import { CheckpointRecorder } from './checkpoint-recorder';
import { releaseRemovedCheckpoints } from './released-checkpoints';
import { recoverChangeSets } from './checkpoint-recovery';
import { Rewinds, type RewindRefusal, type RewindRequest } from './checkpoint-rewinds';
import { FILE_TOOLS, pathToWrite, writerOf, writtenPath } from './tool-writes';
import { compareWithCheckpoint, restoreFiles, writeBeside } from './revert-files';
import { sessionChangeSets, sessionChangeSetSummaries } from './branch-lineage';
import { listedFiles, listedUndone, undoneFiles } from './change-listing';
import type { ShadowRepo } from './shadow-git';
import { GitHelper } from './git-runner';
import { whyFolderGone } from './gone-folders';
import { shownDiff } from './shown-diff';
import { gitAvailability, shadowRepoFor } from './shadow-git-setup';

export interface CheckpointServiceDeps {
  readonly stores: Pick<Stores, 'sessions' | 'turns' | 'checkpoints' | 'branches' | 'worktrees'>;
  readonly bus: EventBus;
  readonly clock: Clock;
  readonly ids: Ids;
  readonly logger: Logger;
  readonly dataDir: string;
  /** Whether a session runs a native agent (Codex) whose writes Cairn sees only in the workspace. */
  readonly isNative: (sessionId: string) => boolean;
  readonly maxFileBytes?: number;
  /** Turns checkpoints off (the bench's baseline). */
  readonly disabled?: boolean;
  readonly afterCommitObject?: (changeSetId: string) => void;
}

/**
 * Per-turn file checkpoints, the change sets they make, and reverting them. Cairn's own writing
 * tools are wrapped (`guard`): the first write of a turn takes the checkpoint before, each write is
 * attributed to its tool or command, and the turn's end (seen on the event bus) takes the
 * checkpoint after. A native agent's turn is checkpointed from its start and its changes attributed
 * to it.
 */
export class CheckpointService {
  private readonly repos = new Map<string, ShadowRepo>();
  /** Starts every repository's git: a start from the host would block its event loop (`git-runner.ts`). */
  private readonly gitHelper = new GitHelper();
  private readonly recorder: CheckpointRecorder;
  private readonly rewinds: Rewinds;
  private readonly git = gitAvailability();
  private reverting: Promise<unknown> = Promise.resolve();
  private readonly warmed = new Set<string>();
  /** Work started off a caller's path (a native turn's checkpoint, warming, finishing, recovery): shutdown waits for it. */
  private readonly background = new Set<Promise<unknown>>();
  private closed = false;
  /** Native turns whose checkpoint before is being begun, by session and turn. */
  private readonly starting = new Map<string, Promise<void>>();

  constructor(private readonly deps: CheckpointServiceDeps) {
    this.recorder = this.makeRecorder();
    this.rewinds = new Rewinds({
      stores: deps.stores,
      recorder: this.recorder,
      repoFor: (workspace) => this.repoFor(workspace),
      unavailable: () => this.unavailable(),
      workspaceGone: (workspacePath) => this.workspaceGone(workspacePath),
      publicRecord: (changeSetId) => this.publicRecord(changeSetId),
    });
    deps.bus.subscribe((event) => {
      if (event.kind === 'session.removed' && deps.disabled !== true)
        this.inBackground(() =>
          releaseRemovedCheckpoints({ ...deps, repoFor: (workspace) => this.repoFor(workspace) }),
        );
    });
  }

  private makeRecorder(): CheckpointRecorder {
    const { deps } = this;
    return new CheckpointRecorder({
      store: deps.stores.checkpoints,
      clock: deps.clock,
      ids: deps.ids,
      logger: deps.logger,
      repoFor: (workspace) => this.repoFor(workspace),
      onRecorded: (sessionId, turnId) => deps.bus.publish({ kind: 'changes.changed', sessionId, turnId }),
      ...(deps.afterCommitObject === undefined ? {} : { afterCommitObject: deps.afterCommitObject }),
    });
  }

  private repoFor(workspace: string): ShadowRepo {
    let repo = this.repos.get(workspace);
    if (repo === undefined) {
      repo = shadowRepoFor(this.deps.dataDir, workspace, this.deps.maxFileBytes, this.gitHelper.run);
      this.repos.set(workspace, repo);
    }
    return repo;
  }

  /** Why checkpoints are unavailable on this machine, or null. */
  async unavailable(): Promise<string | null> {
    if (this.deps.disabled === true) return 'File checkpoints are turned off for this host.';
    const git = await this.git;
    return git.available ? null : git.reason;
  }

  /**
   * The workspace tools with every writing tool wrapped in a checkpoint and an attribution. A file
   * tool's write takes only its own path's state before (what it costs does not grow with the
   * workspace); any other writer (a command) takes the whole workspace first.
   */
  guard(tools: readonly AgentTool[], root: string): AgentTool[] {
    return tools.map((tool) =>
      tool.readOnly
        ? tool
        : {
            ...tool,
            execute: async (input, context) => {
              if ((await this.unavailable()) !== null) return tool.execute(input, context);
              const { sessionId, turnId } = context;
              const target = FILE_TOOLS.has(tool.name) ? await pathToWrite(root, input) : undefined;
              if (target === undefined) await this.recorder.begin(sessionId, turnId, root);
              else if (target !== null) await this.recorder.beforeWrite(sessionId, turnId, root, target);
              const outcome = await tool.execute(input, context);
              const written = writtenPath(tool.name, outcome);
              if (written !== null)
                await this.recorder.attributeExact(sessionId, turnId, written, writerOf(tool.name, input));
              else if (target === undefined)
                await this.recorder.attribute(sessionId, turnId, writerOf(tool.name, input));
              return outcome;
            },
          },
    );
  }

  /** Subscribed to the event bus: a native agent's turn starts recording; every turn's end finishes it. */
  onEvent(event: ChangeEvent): void {
    if (event.kind !== 'turn.changed') return;
    const { sessionId, turnId, status } = event.turn;
    if (status === 'running') {
      const session = this.deps.stores.sessions.get(sessionId);
      const workspace = session?.workspacePath ?? null;
      if (workspace === null || session?.permissionMode === 'explore') return;
      if (this.deps.isNative(sessionId)) this.inBackground(() => this.beginNative(sessionId, turnId, workspace));
      return;
    }
    if (isActiveStatus(status)) return;
    const ended = this.deps.stores.sessions.get(sessionId);
    if (ended?.workspacePath != null && ended.permissionMode !== 'explore')
      this.inBackground(() => this.warm(ended.workspacePath ?? ''));
    const starting = this.starting.get(this.startKey(sessionId, turnId));
    if (starting === undefined && !this.recorder.isRecording(sessionId, turnId)) return;
    const fallback: ChangeWriter = this.deps.isNative(sessionId) ? { kind: 'native_agent' } : { kind: 'unknown' };
    // A native turn can end before its checkpoint has begun (it begins off the turn's path): finish after it.
    this.inBackground(async () => {
      await starting;
      if (!this.recorder.isRecording(sessionId, turnId)) return;
      await this.recorder
        .finish(sessionId, turnId, fallback)
        .catch((error: unknown) =>
          this.deps.logger.warn('A turn’s file changes could not be recorded', { error: String(error) }),
        );
    });
  }

  private startKey(sessionId: string, turnId: string): string {
    return `${sessionId}\u0000${turnId}`;
  }

  /** Runs `work` unless the host is shutting down, and remembers it until it settles. */
  private inBackground(work: () => Promise<unknown>): void {
    if (this.closed) return;
    const running = work().catch((error: unknown) =>
      this.deps.logger.warn('File checkpoint work failed', { error: String(error) }),
    );
    this.background.add(running);
    void running.finally(() => this.background.delete(running));
  }

  /**
   * At shutdown, after the turns have ended: no new checkpoint work starts, and what is under way
   * (a checkpoint being written, a turn's changes being recorded, a revert) finishes before the
   * database closes. A checkpoint cut off by a kill instead is closed by `recover` at the next start.
   */
  async shutdown(): Promise<void> {
    this.closed = true;
    while (this.background.size > 0) await Promise.allSettled([...this.background]);
    await this.reverting;
    await this.gitHelper.close();
  }

  /**
   * After the first turn on a workspace in this host, its shadow index is brought up to date in the
   * background, at the lowest CPU priority, so the checkpoint before a later command only looks at
   * what changed. Not during the turn: a file tool's write never needs it, and the turn's own work
   * comes first (a command in that first turn takes the snapshot itself).
   */
  private async warm(workspace: string): Promise<void> {
    if (this.warmed.has(workspace) || (await this.unavailable()) !== null) return;
    this.warmed.add(workspace);
    const repo = this.repoFor(workspace);
    await repo
      .exclusive(() => repo.snapshot({ background: true }))
      .catch((error: unknown) =>
        this.deps.logger.warn('The workspace could not be indexed for checkpoints', { error: String(error) }),
      );
  }

  private beginNative(sessionId: string, turnId: string, workspace: string): Promise<void> {
    const key = this.startKey(sessionId, turnId);
    const start = (async () => {
      if ((await this.unavailable()) === null) await this.recorder.begin(sessionId, turnId, workspace);
    })().finally(() => this.starting.delete(key));
    this.starting.set(key, start);
    return start;
  }

  /**
   * The session's change sets, each with its first `LISTED_FILES` files and its totals (`changes.files`
   * reads the rest), and which of its files later reverts put back, so a listing's cost does not grow
   * with the files a turn changed.
   */
  async list(
    sessionId: string,
    turnId: string | undefined,
  ): Promise<Outcome<{ changeSets: ListedChangeSet[]; unavailable: string | null }, 'not_found'>> {
    const { stores } = this.deps;
    const session = stores.sessions.get(sessionId);
    if (session === null) return fail('not_found', 'That session does not exist.');
    const unavailable =
      session.workspacePath === null
        ? 'This session has no workspace folder, so there are no file changes to show.'
        : await this.unavailable();
    const gone = new Map<string, string | null>();
    const summaries = sessionChangeSetSummaries(stores, sessionId, turnId, LISTED_FILES);
    const undone = undoneFiles(summaries, (changeSetId) => stores.checkpoints.paths(changeSetId));
    const changeSets: ListedChangeSet[] = summaries.map(
      ({ workspacePath, beforeCommit: _before, afterCommit: _after, files, ...changeSet }) => {
        if (!gone.has(workspacePath)) gone.set(workspacePath, this.workspaceGone(workspacePath));
        return {
          ...changeSet,
          ...listedFiles(files),
          undone: listedUndone(undone.get(changeSet.changeSetId), changeSet.fileCount),
          turnText: this.turnText(changeSet.sessionId, changeSet.turnId),
          workspaceGone: gone.get(workspacePath) ?? null,
        };
      },
    );
    return ok({ changeSets, unavailable });
  }

  /** A change set's files by path from `offset` on, at most `FILES_PAGE` of them (the listing carries the first few). */
  files(input: { sessionId: string; changeSetId: string; offset: number }): Outcome<ChangeFilesPage, 'not_found'> {
    const { stores } = this.deps;
    const listed = sessionChangeSetSummaries(stores, input.sessionId, undefined, 0).find(
      (item) => item.changeSetId === input.changeSetId,
    );
    if (listed === undefined) return fail('not_found', 'That change set does not exist in this session.');
    return ok({
      ...listedFiles(stores.checkpoints.files(input.changeSetId, input.offset, FILES_PAGE)),
      fileCount: listed.fileCount,
    });
  }

  /**
   * Why a change set's files cannot be put back because the folder they were changed in is gone (a
   * worktree discarded or merged back removes its folder), or null while it exists.
   */
  private workspaceGone(workspacePath: string): string | null {
    return whyFolderGone(workspacePath, this.deps.stores.worktrees);
  }

  /** A change set the session lists (a branch lists its copied turns' change sets, which belong to its source), or null. */
  private changeSetIn(sessionId: string, changeSetId: string): StoredChangeSet | null {
    const { stores } = this.deps;
    const changeSet = stores.checkpoints.get(changeSetId);
    if (changeSet === null) return null;
    const listed = sessionChangeSets(stores, sessionId, changeSet.turnId);
    return listed.some((item) => item.changeSetId === changeSetId) ? changeSet : null;
  }

  /** One file's diff in a change set, read when it is shown (a listing carries none). */
  async diff(input: { sessionId: string; changeSetId: string; path: string }): Promise<Outcome<FileDiff, 'not_found'>> {
    const changeSet = this.changeSetIn(input.sessionId, input.changeSetId);
    if (changeSet === null) return fail('not_found', 'That change set does not exist in this session.');
    const file = changeSet.files.find((candidate) => candidate.path === input.path);
    if (file === undefined) return fail('not_found', `${input.path} is not among these changes.`);
    const { beforeCommit, afterCommit } = changeSet;
    if (beforeCommit === null || afterCommit === null || file.added === null || (await this.unavailable()) !== null)
      return ok({ diff: '', cut: false });
    const repo = this.repoFor(changeSet.workspacePath);
    const raw = await repo
      .diff(beforeCommit, afterCommit, file.path)
      .catch((error: unknown) => `The diff could not be read: ${String(error)}`);
    return ok(shownDiff(raw));
  }

  /** A turn's message; a rewind's (or its revert's) turn is in the session the rewind branched from. */
  private turnText(sessionId: string, turnId: string): string | null {
    const { turns, branches } = this.deps.stores;
    const own = turns.getTurn(sessionId, turnId);
    if (own !== null) return own.text;
    const source = branches.get(sessionId);
    return source?.mode === 'rewind' ? (turns.getTurn(source.sourceSessionId, turnId)?.text ?? null) : null;
  }

  /** Reverts one file or a whole change set; one revert at a time. */
  revert(input: {
    sessionId: string;
    changeSetId: string;
    path?: string;
    resolution?: ConflictResolution;
  }): Promise<Outcome<RevertResult, 'internal_failure' | 'not_found' | 'operation_unavailable' | 'session_busy'>> {
    const next = this.reverting.then(() =>
      this.revertNow(input).catch((error: unknown) => this.failedToWrite('revert', error)),
    );
    this.reverting = next.catch(() => undefined);
    return next;
  }

  private async revertNow(input: {
    sessionId: string;
    changeSetId: string;
    path?: string;
    resolution?: ConflictResolution;
  }): Promise<Outcome<RevertResult, 'internal_failure' | 'not_found' | 'operation_unavailable' | 'session_busy'>> {
    const { stores } = this.deps;
    const changeSet = this.changeSetIn(input.sessionId, input.changeSetId);
    if (changeSet === null) return fail('not_found', 'That change set does not exist in this session.');
    if (changeSet.status !== 'complete' || changeSet.beforeCommit === null || changeSet.afterCommit === null) {
      return fail(
        'operation_unavailable',
        changeSet.note ?? 'These changes are still being recorded; wait for the turn to end.',
      );
    }
    const gone = this.workspaceGone(changeSet.workspacePath);
    if (gone !== null) return fail('operation_unavailable', gone);
    if (stores.turns.activeTurn(input.sessionId) !== null)
      return fail('session_busy', 'A turn is running in this session; revert when it has ended.');
    const unavailable = await this.unavailable();
    if (unavailable !== null) return fail('operation_unavailable', unavailable);
    const paths =
      input.path === undefined
        ? changeSet.files.map((file) => file.path)
        : changeSet.files.filter((file) => file.path === input.path).map((file) => file.path);
    if (paths.length === 0) return fail('not_found', `${input.path ?? 'That file'} is not among these changes.`);
    const repo = this.repoFor(changeSet.workspacePath);
    const now = await repo.exclusive(() => repo.snapshot());
    const { conflicts, pending } = await compareWithCheckpoint(
      repo,
      paths,
      now.tree,
      changeSet.beforeCommit,
      changeSet.afterCommit,
    );
    if (conflicts.length > 0 && input.resolution === undefined) return ok({ status: 'conflict', files: conflicts });
    const targets =
      input.resolution === 'take_checkpoint' ? pending : pending.filter((file) => !conflicts.includes(file));
    const beside = input.resolution === 'open_both' ? conflicts : [];
    if (targets.length === 0 && beside.length === 0) return ok({ status: 'nothing_to_revert' });
    const recording = await this.recorder.begin(input.sessionId, changeSet.turnId, changeSet.workspacePath, {
      origin: 'revert',
      revertsChangeSetId: changeSet.changeSetId,
    });
    if (recording === null)
      return fail(
        'operation_unavailable',
        'The checkpoint before the revert could not be written, so nothing was changed.',
      );
    try {
      await restoreFiles(repo, targets, changeSet.beforeCommit);
      await writeBeside(repo, beside, changeSet.beforeCommit);
    } finally {
      await this.recorder.finish(input.sessionId, changeSet.turnId, { kind: 'revert' });
    }
    const revert = this.publicRecord(recording.changeSetId);
    return revert === null
      ? fail('internal_failure', 'The revert was not recorded.')
      : ok({ status: 'reverted', revert });
  }

  /** A revert or rewind git or the file system refused part-way: what was written is in its own change set; the person is told why. */
  private failedToWrite(what: 'revert' | 'rewind', error: unknown): Outcome<never, 'operation_unavailable'> {
    this.deps.logger.warn(`A ${what} could not be completed`, { error: String(error) });
    return fail(
      'operation_unavailable',
      `The ${what} could not be completed: ${String(error)
        .replace(/^Error: /, '')
        .slice(0, 300)}`,
    );
  }

  private publicRecord(changeSetId: string): ChangeSetRecord | null {
    const stored = this.deps.stores.checkpoints.get(changeSetId);
    return stored === null ? null : publicChangeSet(stored);
  }

  /**
   * Rewind to before `turnId` (one revert at a time): every file the change sets since that turn
   * began touched (in a branch, its source's change sets too: `branchLineage`) goes back to its
   * state before the first of them, judged against the workspace now: files the person changed
   * since are a `conflict` unless `resolution` says what to do. Then
   * `branch` makes the branch holding the conversation, and the files are written as a change set
   * of that branch (origin `rewind`), so Undo puts them forward again.
   */
  rewind<C extends ErrorCode>(input: RewindRequest<C>): Promise<Outcome<RewindResult, C | RewindRefusal>> {
    const next = this.reverting.then(() =>
      this.rewinds.rewind(input).catch((error: unknown) => this.failedToWrite('rewind', error)),
    );
    this.reverting = next.catch(() => undefined);
    return next;
  }

  /**
   * What a rewind to before `turnId` would do to the files (each file's action, and which the person
   * changed since), found like the rewind finds it but without writing a file or making a branch.
   */
  rewindPlan(input: { sessionId: string; since: number }): Promise<Outcome<RewindPlan, RewindRefusal>> {
    const next = this.reverting.then(() => this.rewinds.plan(input));
    this.reverting = next.catch(() => undefined);
    return next;
  }

  /** `recover`, off the start-up path; shutdown waits for it. */
  recoverInBackground(): void {
    this.inBackground(() => this.recover());
  }

  /** Closes the change sets a stopped host left unfinished (checkpoint-recovery.ts). */
  async recover(): Promise<{ completed: number; absent: number }> {
    if ((await this.unavailable()) !== null) return { completed: 0, absent: 0 };
    return recoverChangeSets({
      ...this.deps,
      recorder: this.recorder,
      repoFor: (workspace) => this.repoFor(workspace),
    });
  }
}
