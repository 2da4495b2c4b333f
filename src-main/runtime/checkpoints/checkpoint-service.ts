import { existsSync } from 'node:fs';
import { join } from 'node:path';
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
import { fail, ok, type Outcome } from '../../../src-shared/errors';
import type { ChangeEvent } from '../../../src-shared/events';
import { isActiveStatus, type SessionRecord } from '../../../src-shared/model';
import type { Stores } from '../../storage/stores';
import { publicChangeSet } from '../../storage/checkpoint-store';
import type { EventBus } from '../core/event-bus';
import type { Clock, Ids, Logger } from '../core/ports';
import type { AgentTool, ToolOutcome, ToolSuspension } from '../tools/agent-tool';
import { ABSENT_NOTE, afterFailedNote, beforeRef, CheckpointRecorder, partialPaths } from './checkpoint-recorder';
import { compareWithCheckpoint, restoreFiles, writeBeside } from './revert-files';
import { branchLineage, sessionChangeSets, sessionChangeSetSummaries } from './branch-lineage';
import { listedFiles, listedUndone, undoneFiles } from './change-listing';
import { byBefore, compareForRewind, rewindPaths, type RewindComparison } from './rewind-plan';
import { resolveInWorkspace } from '../workspace/workspace-paths';
import { ShadowRepo } from './shadow-git';
import { gitAvailability, shadowDirFor } from './shadow-git-setup';

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

export interface RewindRequest {
  readonly sessionId: string;
  /** The turn rewound to (its files go back to before it). */
  readonly turnId: string;
  /** When that turn began: every change set since is rewound. */
  readonly since: number;
  readonly resolution?: ConflictResolution | undefined;
  /** Makes the branch holding the conversation before the turn, once the files are known to go back. */
  readonly branch: () => Promise<Outcome<SessionRecord>>;
}

/** What a change set closed by recovery says: its checkpoint before was whole; its writers are not known. */
const RECOVERED_NOTE =
  'Cairn stopped during this turn; the checkpoint before it was complete, and these changes were recorded when Cairn started again (who wrote each file is not known).';

/** The most of one file's diff `changes.diff` answers. */
const MAX_DIFF_CHARS = 100_000;

/**
 * Per-turn file checkpoints, the change sets they make, and reverting them. Cairn's own writing
 * tools are wrapped (`guard`): the first write of a turn takes the checkpoint before, each write is
 * attributed to its tool or command, and the turn's end (seen on the event bus) takes the
 * checkpoint after. A native agent's turn is checkpointed from its start and its changes attributed
 * to it.
 */
export class CheckpointService {
  private readonly repos = new Map<string, ShadowRepo>();
  private readonly recorder: CheckpointRecorder;
  private readonly git = gitAvailability();
  private reverting: Promise<unknown> = Promise.resolve();
  private readonly warmed = new Set<string>();
  /** Work started off a caller's path (a native turn's checkpoint, warming, finishing, recovery): shutdown waits for it. */
  private readonly background = new Set<Promise<unknown>>();
  private closed = false;
  /** Native turns whose checkpoint before is being begun, by session and turn. */
  private readonly starting = new Map<string, Promise<void>>();

  constructor(private readonly deps: CheckpointServiceDeps) {
    this.recorder = new CheckpointRecorder({
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
      repo = new ShadowRepo(shadowDirFor(this.deps.dataDir, workspace), workspace, this.deps.maxFileBytes, [this.deps.dataDir, join(this.deps.dataDir, 'checkpoints')]);
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
              if (written !== null) await this.recorder.attributeExact(sessionId, turnId, written, writerOf(tool.name, input));
              else if (target === undefined) await this.recorder.attribute(sessionId, turnId, writerOf(tool.name, input));
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
    if (ended?.workspacePath != null && ended.permissionMode !== 'explore') this.inBackground(() => this.warm(ended.workspacePath ?? ''));
    const starting = this.starting.get(this.startKey(sessionId, turnId));
    if (starting === undefined && !this.recorder.isRecording(sessionId, turnId)) return;
    const fallback: ChangeWriter = this.deps.isNative(sessionId) ? { kind: 'native_agent' } : { kind: 'unknown' };
    // A native turn can end before its checkpoint has begun (it begins off the turn's path): finish after it.
    this.inBackground(async () => {
      await starting;
      if (!this.recorder.isRecording(sessionId, turnId)) return;
      await this.recorder
        .finish(sessionId, turnId, fallback)
        .catch((error: unknown) => this.deps.logger.warn('A turn’s file changes could not be recorded', { error: String(error) }));
    });
  }

  private startKey(sessionId: string, turnId: string): string {
    return `${sessionId}\u0000${turnId}`;
  }

  /** Runs `work` unless the host is shutting down, and remembers it until it settles. */
  private inBackground(work: () => Promise<unknown>): void {
    if (this.closed) return;
    const running = work().catch((error: unknown) => this.deps.logger.warn('File checkpoint work failed', { error: String(error) }));
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
      .catch((error: unknown) => this.deps.logger.warn('The workspace could not be indexed for checkpoints', { error: String(error) }));
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
  async list(sessionId: string, turnId: string | undefined): Promise<Outcome<{ changeSets: ListedChangeSet[]; unavailable: string | null }>> {
    const { stores } = this.deps;
    const session = stores.sessions.get(sessionId);
    if (session === null) return fail('not_found', 'That session does not exist.');
    const unavailable = session.workspacePath === null ? 'This session has no workspace folder, so there are no file changes to show.' : await this.unavailable();
    const gone = new Map<string, string | null>();
    const summaries = sessionChangeSetSummaries(stores, sessionId, turnId, LISTED_FILES);
    const undone = undoneFiles(summaries, (changeSetId) => stores.checkpoints.paths(changeSetId));
    const changeSets: ListedChangeSet[] = summaries.map(({ workspacePath, beforeCommit: _before, afterCommit: _after, files, ...changeSet }) => {
      if (!gone.has(workspacePath)) gone.set(workspacePath, this.workspaceGone(workspacePath));
      return {
        ...changeSet,
        ...listedFiles(files),
        undone: listedUndone(undone.get(changeSet.changeSetId), changeSet.fileCount),
        turnText: this.turnText(changeSet.sessionId, changeSet.turnId),
        workspaceGone: gone.get(workspacePath) ?? null,
      };
    });
    return ok({ changeSets, unavailable });
  }

  /** A change set's files by path from `offset` on, at most `FILES_PAGE` of them (the listing carries the first few). */
  files(input: { sessionId: string; changeSetId: string; offset: number }): Outcome<ChangeFilesPage> {
    const { stores } = this.deps;
    const listed = sessionChangeSetSummaries(stores, input.sessionId, undefined, 0).find((item) => item.changeSetId === input.changeSetId);
    if (listed === undefined) return fail('not_found', 'That change set does not exist in this session.');
    return ok({ ...listedFiles(stores.checkpoints.files(input.changeSetId, input.offset, FILES_PAGE)), fileCount: listed.fileCount });
  }

  /**
   * Why a change set's files cannot be put back because the folder they were changed in is gone (a
   * worktree discarded or merged back removes its folder), or null while it exists.
   */
  private workspaceGone(workspacePath: string): string | null {
    if (existsSync(workspacePath)) return null;
    const worktree = this.deps.stores.worktrees.containing(workspacePath);
    if (worktree?.state === 'discarded') return `The worktree these changes were made in (${worktree.branch}) was discarded with its folder, so they can no longer be reverted.`;
    if (worktree?.state === 'merged')
      return `The worktree these changes were made in (${worktree.branch}) was merged back into ${worktree.baseBranch} and removed, so they can no longer be reverted here.`;
    return `The folder these changes were made in (${workspacePath}) no longer exists, so they cannot be reverted.`;
  }

  /** One file's diff in a change set, read when it is shown (a listing carries none). */
  async diff(input: { sessionId: string; changeSetId: string; path: string }): Promise<Outcome<FileDiff>> {
    const { stores } = this.deps;
    const changeSet = stores.checkpoints.get(input.changeSetId);
    // A branch lists (and so shows) its copied turns' change sets, which belong to its source.
    const inSession = changeSet !== null && sessionChangeSets(stores, input.sessionId, changeSet.turnId).some((listed) => listed.changeSetId === changeSet.changeSetId);
    if (changeSet === null || !inSession) return fail('not_found', 'That change set does not exist in this session.');
    const file = changeSet.files.find((candidate) => candidate.path === input.path);
    if (file === undefined) return fail('not_found', `${input.path} is not among these changes.`);
    const { beforeCommit, afterCommit } = changeSet;
    if (beforeCommit === null || afterCommit === null || file.added === null || (await this.unavailable()) !== null) return ok({ diff: '', cut: false });
    const repo = this.repoFor(changeSet.workspacePath);
    const diff = trimGitHeader(await repo.diff(beforeCommit, afterCommit, file.path).catch((error: unknown) => `The diff could not be read: ${String(error)}`));
    return ok(diff.length > MAX_DIFF_CHARS ? { diff: `${diff.slice(0, MAX_DIFF_CHARS)}\n… [diff cut at ${MAX_DIFF_CHARS} characters]`, cut: true } : { diff, cut: false });
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
  revert(input: { sessionId: string; changeSetId: string; path?: string; resolution?: ConflictResolution }): Promise<Outcome<RevertResult>> {
    const next = this.reverting.then(() => this.revertNow(input).catch((error: unknown) => this.failedToWrite('revert', error)));
    this.reverting = next.catch(() => undefined);
    return next;
  }

  private async revertNow(input: { sessionId: string; changeSetId: string; path?: string; resolution?: ConflictResolution }): Promise<Outcome<RevertResult>> {
    const { stores } = this.deps;
    const changeSet = stores.checkpoints.get(input.changeSetId);
    const inSession = changeSet !== null && sessionChangeSets(stores, input.sessionId, changeSet.turnId).some((listed) => listed.changeSetId === changeSet.changeSetId);
    if (changeSet === null || !inSession) return fail('not_found', 'That change set does not exist in this session.');
    if (changeSet.status !== 'complete' || changeSet.beforeCommit === null || changeSet.afterCommit === null) {
      return fail('operation_unavailable', changeSet.note ?? 'These changes are still being recorded; wait for the turn to end.');
    }
    const gone = this.workspaceGone(changeSet.workspacePath);
    if (gone !== null) return fail('operation_unavailable', gone);
    if (stores.turns.activeTurn(input.sessionId) !== null) return fail('session_busy', 'A turn is running in this session; revert when it has ended.');
    const unavailable = await this.unavailable();
    if (unavailable !== null) return fail('operation_unavailable', unavailable);
    const paths = input.path === undefined ? changeSet.files.map((file) => file.path) : changeSet.files.filter((file) => file.path === input.path).map((file) => file.path);
    if (paths.length === 0) return fail('not_found', `${input.path ?? 'That file'} is not among these changes.`);
    const repo = this.repoFor(changeSet.workspacePath);
    const now = await repo.exclusive(() => repo.snapshot());
    const { conflicts, pending } = await compareWithCheckpoint(repo, paths, now.tree, changeSet.beforeCommit, changeSet.afterCommit);
    if (conflicts.length > 0 && input.resolution === undefined) return ok({ status: 'conflict', files: conflicts });
    const targets = input.resolution === 'take_checkpoint' ? pending : pending.filter((file) => !conflicts.includes(file));
    const beside = input.resolution === 'open_both' ? conflicts : [];
    if (targets.length === 0 && beside.length === 0) return ok({ status: 'nothing_to_revert' });
    const recording = await this.recorder.begin(input.sessionId, changeSet.turnId, changeSet.workspacePath, { origin: 'revert', revertsChangeSetId: changeSet.changeSetId });
    if (recording === null) return fail('operation_unavailable', 'The checkpoint before the revert could not be written, so nothing was changed.');
    try {
      await restoreFiles(repo, targets, changeSet.beforeCommit);
      await writeBeside(repo, beside, changeSet.beforeCommit);
    } finally {
      await this.recorder.finish(input.sessionId, changeSet.turnId, { kind: 'revert' });
    }
    const revert = this.publicRecord(recording.changeSetId);
    return revert === null ? fail('internal_failure', 'The revert was not recorded.') : ok({ status: 'reverted', revert });
  }

  /** A revert or rewind git or the file system refused part-way: what was written is in its own change set; the person is told why. */
  private failedToWrite(what: 'revert' | 'rewind', error: unknown): Outcome<never> {
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
  rewind(input: RewindRequest): Promise<Outcome<RewindResult>> {
    const next = this.reverting.then(() => this.rewindNow(input).catch((error: unknown) => this.failedToWrite('rewind', error)));
    this.reverting = next.catch(() => undefined);
    return next;
  }

  /**
   * What a rewind to before `turnId` would do to the files (each file's action, and which the person
   * changed since), found like the rewind finds it but without writing a file or making a branch.
   */
  rewindPlan(input: { sessionId: string; since: number }): Promise<Outcome<RewindPlan>> {
    const next = this.reverting.then(() => this.rewindPlanNow(input));
    this.reverting = next.catch(() => undefined);
    return next;
  }

  private async rewindPlanNow(input: { sessionId: string; since: number }): Promise<Outcome<RewindPlan>> {
    const found = await this.rewindTargets(input.sessionId, input.since);
    if (!found.ok) return found;
    if (found.result === null) return ok({ files: [], hasWorkspace: this.deps.stores.sessions.get(input.sessionId)?.workspacePath != null });
    const { pending, conflicts, actions } = found.result;
    const files = pending
      .map((item) => ({ path: item.path, action: actions.get(item.path) ?? 'change', changedSince: conflicts.includes(item) }))
      .sort((a, b) => a.path.localeCompare(b.path));
    return ok({ files, hasWorkspace: true });
  }

  /**
   * The files a rewind to `since` puts back, compared with the workspace now, or why it cannot be
   * done; null when the later turns changed no file (the rewind is of the conversation only).
   */
  private async rewindTargets(sessionId: string, since: number): Promise<Outcome<(RewindComparison & { workspace: string; repo: ShadowRepo }) | null>> {
    const { stores } = this.deps;
    if (stores.turns.activeTurn(sessionId) !== null) return fail('session_busy', 'A turn is running in this session; rewind when it has ended.');
    // A branch's copied turns changed files through its source's change sets: rewind through those too.
    const lineage = branchLineage(stores, sessionId);
    if (lineage.unknownBefore !== null && since < lineage.unknownBefore) {
      return fail(
        'operation_unavailable',
        'The session this one was branched from has been deleted, and with it the checkpoints of the turns before the branch; nothing was changed.',
      );
    }
    const later = lineage.changeSets.filter((changeSet) => changeSet.createdAt >= since);
    const unfinished = later.find((changeSet) => changeSet.status !== 'complete');
    if (unfinished !== undefined) {
      return fail(
        'operation_unavailable',
        unfinished.status === 'absent'
          ? 'A later turn has no checkpoint, so its files cannot be put back exactly; nothing was changed.'
          : 'A later turn’s changes are still being recorded; try again in a moment.',
      );
    }
    const changed = later.filter((changeSet) => changeSet.files.length > 0);
    const workspaces = new Set(changed.map((changeSet) => changeSet.workspacePath));
    for (const folder of workspaces) {
      const gone = this.workspaceGone(folder);
      if (gone !== null) return fail('operation_unavailable', gone);
    }
    if (workspaces.size > 1) return fail('operation_unavailable', 'The later turns changed files in more than one workspace folder; revert them turn by turn instead.');
    const [workspace] = workspaces;
    if (workspace === undefined) return ok(null);
    const unavailable = await this.unavailable();
    if (unavailable !== null) return fail('operation_unavailable', unavailable);
    const repo = this.repoFor(workspace);
    const now = await repo.exclusive(() => repo.snapshot());
    return ok({ ...(await compareForRewind(repo, rewindPaths(changed), now.tree)), workspace, repo });
  }

  private async rewindNow(input: RewindRequest): Promise<Outcome<RewindResult>> {
    const found = await this.rewindTargets(input.sessionId, input.since);
    if (!found.ok) return found;
    if (found.result === null) return this.rewound(await input.branch(), null);
    const { conflicts, pending, workspace, repo } = found.result;
    if (conflicts.length > 0 && input.resolution === undefined) return ok({ status: 'conflict', files: conflicts.map((item) => item.path) });
    const targets = input.resolution === 'take_checkpoint' ? pending : pending.filter((item) => !conflicts.includes(item));
    const beside = input.resolution === 'open_both' ? conflicts : [];
    const branch = await input.branch();
    if (!branch.ok || targets.length + beside.length === 0) return this.rewound(branch, null);
    const recording = await this.recorder.begin(branch.result.sessionId, input.turnId, workspace, { origin: 'rewind', revertsChangeSetId: null });
    if (recording === null) return fail('operation_unavailable', 'The checkpoint before the rewind could not be written, so no file was changed (the branch was made).');
    try {
      for (const [before, paths] of byBefore(targets)) await restoreFiles(repo, paths, before);
      for (const [before, paths] of byBefore(beside)) await writeBeside(repo, paths, before);
    } finally {
      await this.recorder.finish(branch.result.sessionId, input.turnId, { kind: 'revert' });
    }
    return this.rewound(branch, this.publicRecord(recording.changeSetId));
  }

  private rewound(branch: Outcome<SessionRecord>, rewind: ChangeSetRecord | null): Outcome<RewindResult> {
    return branch.ok ? ok({ status: 'rewound', session: branch.result, rewind }) : branch;
  }

  /** `recover`, off the start-up path; shutdown waits for it. */
  recoverInBackground(): void {
    this.inBackground(() => this.recover());
  }

  /**
   * Closes what a stopped host left: a pending change set whose checkpoint ref exists is complete
   * (its after-state is the workspace now, writers unknown); one whose ref is missing is absent. An
   * open one is closed the same way. Returns what it found, for the log.
   */
  async recover(): Promise<{ completed: number; absent: number }> {
    const report = { completed: 0, absent: 0 };
    const unfinished = this.deps.stores.checkpoints.unfinished();
    if (unfinished.length === 0 || (await this.unavailable()) !== null) return report;
    for (const changeSet of unfinished) {
      const repo = this.repoFor(changeSet.workspacePath);
      try {
        // The ref is written before the row: when a partial checkpoint was being widened, it is the newer.
        const before = (await repo.readRef(beforeRef(changeSet.changeSetId))) ?? changeSet.beforeCommit;
        if (before === null) {
          this.deps.stores.checkpoints.markAbsent(changeSet.changeSetId, ABSENT_NOTE, this.deps.clock.now());
          report.absent += 1;
        } else {
          if (changeSet.beforeCommit !== before) this.deps.stores.checkpoints.markOpen(changeSet.changeSetId, before);
          const partial = partialPaths(await repo.message(before));
          await this.recorder.complete(changeSet.changeSetId, changeSet.workspacePath, before, new Map(), { kind: 'unknown' }, RECOVERED_NOTE, partial);
          report.completed += 1;
        }
        this.deps.bus.publish({ kind: 'changes.changed', sessionId: changeSet.sessionId, turnId: changeSet.turnId });
      } catch (error) {
        // Never left open: an open change set would block every rewind across it, for good.
        this.deps.logger.warn('A file checkpoint could not be recovered', { changeSetId: changeSet.changeSetId, error: String(error) });
        this.deps.stores.checkpoints.markAbsent(changeSet.changeSetId, afterFailedNote(error), this.deps.clock.now());
        report.absent += 1;
        this.deps.bus.publish({ kind: 'changes.changed', sessionId: changeSet.sessionId, turnId: changeSet.turnId });
      }
    }
    this.deps.logger.info('File checkpoints the previous host left unfinished', { ...report });
    return report;
  }
}

/** A unified diff from its `---` line on (git's `diff --git`, mode and index lines left out), without the last newline. */
function trimGitHeader(diff: string): string {
  const start = diff.search(/^--- /m);
  return (start === -1 ? diff : diff.slice(start)).replace(/\n$/, '');
}

/** The tools that write one file, named in their input, and say which in their output. */
const FILE_TOOLS = new Set(['write_file', 'edit_file']);

/**
 * The workspace-relative path a file tool is about to write (links inside the workspace resolved, as
 * the tool resolves them), or null when the tool will refuse the path.
 */
async function pathToWrite(root: string, input: unknown): Promise<string | null> {
  const requested = typeof input === 'object' && input !== null && 'path' in input && typeof input.path === 'string' ? input.path : null;
  if (requested === null) return null;
  const target = await resolveInWorkspace(root, requested, { forWrite: true });
  return target.ok && target.relative !== '.' ? target.relative : null;
}

/** The file a successful write_file / edit_file wrote (its own relative path), else null. */
function writtenPath(toolName: string, outcome: ToolOutcome | ToolSuspension): string | null {
  if (toolName !== 'write_file' && toolName !== 'edit_file') return null;
  if (!('output' in outcome) || outcome.isError) return null;
  const output = outcome.output;
  return typeof output === 'object' && output !== null && 'path' in output && typeof output.path === 'string' ? output.path : null;
}

function writerOf(toolName: string, input: unknown): ChangeWriter {
  if (toolName === 'run_shell') {
    const command = typeof input === 'object' && input !== null && 'command' in input && typeof input.command === 'string' ? input.command : '';
    return { kind: 'command', command: command.slice(0, 500) };
  }
  return { kind: 'file_tool', tool: toolName };
}
