import { existsSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { fail, ok, type ErrorCode, type Outcome } from '../../../src-shared/errors';
import type { SessionRecord } from '../../../src-shared/model';
import type {
  WorktreeDiff,
  WorktreeLeftover,
  WorktreeMergeResult,
  WorktreeRecord,
  WorktreeStatus,
  WorktreeUpdateResult,
} from '../../../src-shared/worktree-model';
import type { Stores } from '../../storage/stores';
import type { EventBus } from '../ports/event-bus';
import type { Clock, Ids, Logger } from '../ports/ports';
import { systemGit, worktreeUnavailability, type Git } from './git-command';
import * as wt from './worktree-git';
import { findLeftovers, removeUnknownFolder } from './worktree-leftovers';
import { DEFAULT_SESSION_TITLE } from '../sessions/session-title';
import { branchForTitle, isInside, shortIdOf, slugOf, worktreeNames, worktreesDir } from './worktree-naming';

export interface WorktreeServiceDeps {
  readonly stores: Pick<Stores, 'sessions' | 'turns' | 'worktrees' | 'settings' | 'transaction'>;
  readonly bus: EventBus;
  readonly clock: Clock;
  readonly ids: Ids;
  readonly logger: Logger;
  readonly dataDir: string;
  /** The environment git runs in (its PATH finds git); the host's own by default. */
  readonly env?: NodeJS.ProcessEnv;
}

const MAX_DIFF_CHARS = 100_000;
/** Settings key of the leftover folders the person chose to keep (absolute paths). */
const KEPT_LEFTOVERS = 'worktrees.keptLeftovers';

/**
 * Sessions in worktrees of their own. A session's worktree becomes its workspace folder, so every
 * writer (Cairn's tools, commands, Codex, ACP agents, checkpoints) works there; merge back and
 * discard put the session back in the checkout it branched from. Every git step is serialised.
 */
export class WorktreeService {
  private readonly git: Git;
  private readonly unavailable: Promise<string | null>;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly deps: WorktreeServiceDeps) {
    this.git = systemGit(deps.env ?? process.env);
    this.unavailable = worktreeUnavailability(this.git, deps.dataDir);
  }

  /** Why worktrees cannot be used on this machine, or null. */
  unavailability(): Promise<string | null> {
    return this.unavailable;
  }

  /** Whether a folder can get worktrees (it is inside a git repository on a branch), and why not. */
  check(
    folder: string,
  ): Promise<
    Outcome<{ available: boolean; reason: string | null; baseBranch: string | null }, 'operation_unavailable'>
  > {
    return this.serial<{ available: boolean; reason: string | null; baseBranch: string | null }>(async () => {
      const head = await this.headOf(folder);
      return 'reason' in head
        ? ok({ available: false, reason: head.reason, baseBranch: null })
        : ok({ available: true, reason: null, baseBranch: head.branch });
    });
  }

  /** Gives the session its own worktree on a new branch from its folder's current branch; a retry returns the one it has. */
  create(
    sessionId: string,
  ): Promise<
    Outcome<
      { worktree: WorktreeRecord; session: SessionRecord },
      'invalid_input' | 'not_found' | 'operation_unavailable' | 'session_busy'
    >
  > {
    return this.serial(async () => {
      const { stores, dataDir, ids, clock } = this.deps;
      const session = stores.sessions.get(sessionId);
      if (session === null) return fail('not_found', 'That session does not exist.');
      const existing = stores.worktrees.activeFor(sessionId);
      if (existing !== null) return ok({ worktree: existing, session });
      if (session.workspacePath === null)
        return fail(
          'invalid_input',
          'This session has no workspace folder; choose a folder inside a git repository first.',
        );
      const busy = this.busy(sessionId, 'give it a worktree');
      if (busy !== null) return busy;
      const head = await this.headOf(session.workspacePath);
      if ('reason' in head) return fail('operation_unavailable', head.reason);
      if (isInside(worktreesDir(dataDir), head.root))
        return fail(
          'operation_unavailable',
          'Cairn’s data folder is inside this repository, so a worktree would land inside it too.',
        );
      const worktreeId = ids.next('worktree');
      let names = worktreeNames(dataDir, head.root, session.title, shortIdOf(worktreeId));
      if ((await wt.branchExists(this.git, head.root, names.branch)) || existsSync(names.folder))
        names = worktreeNames(dataDir, head.root, session.title, shortIdOf(worktreeId, 10));
      await wt.addWorktree(this.git, head.root, names.folder, names.branch, head.commit);
      const inside = path.relative(head.root, realpathSync(session.workspacePath));
      const changed = stores.transaction(() => {
        const worktree = stores.worktrees.insert({
          worktreeId,
          sessionId,
          repoRoot: head.root,
          baseBranch: head.branch,
          baseCommit: head.commit,
          branch: names.branch,
          path: names.folder,
          createdAt: clock.now(),
        });
        return { worktree, session: this.moveSession(session, path.join(names.folder, inside)) };
      });
      this.publish(changed.session, changed.worktree);
      return ok(changed);
    });
  }

  /**
   * Names the worktree's branch after the session's title once it has one (the worktree was made
   * while it was still "New session"): only while the branch has no commits of its own and no other
   * branch has that name. Anything else keeps the name it has; a rename never fails the session.
   */
  nameBranchAfterTitle(sessionId: string): Promise<void> {
    const worktree = this.deps.stores.worktrees.activeFor(sessionId);
    const session = this.deps.stores.sessions.get(sessionId);
    if (worktree === null || session === null || session.titleSource === 'default') return Promise.resolve();
    if (branchForTitle(worktree.branch, session.title, slugOf(DEFAULT_SESSION_TITLE)) === null)
      return Promise.resolve();
    return this.serial(async () => {
      const current = this.deps.stores.worktrees.activeFor(sessionId);
      const title = this.deps.stores.sessions.get(sessionId)?.title;
      const renamed =
        current === null || title === undefined
          ? null
          : branchForTitle(current.branch, title, slugOf(DEFAULT_SESSION_TITLE));
      if (current === null || renamed === null || !existsSync(current.path)) return ok(null);
      if ((await wt.currentBranch(this.git, current.path)) !== current.branch) return ok(null);
      if ((await wt.revParse(this.git, current.path, 'HEAD')) !== current.baseCommit) return ok(null); // it has commits of its own
      if (await wt.branchExists(this.git, current.repoRoot, renamed)) return ok(null);
      await wt.renameCurrentBranch(this.git, current.path, renamed);
      const worktree = this.deps.stores.transaction(() =>
        this.deps.stores.worktrees.setBranch(current.worktreeId, renamed),
      );
      if (worktree !== null) this.publish(null, worktree);
      return ok(null);
    }).then(
      () => undefined,
      (error: unknown) => this.deps.logger.warn('A worktree branch kept its name', { sessionId, error: String(error) }),
    );
  }

  status(
    sessionId: string,
  ): Promise<Outcome<{ status: WorktreeStatus | null; unavailable: string | null }, 'not_found'>> {
    const found = this.activeOf(sessionId);
    if (!found.ok) return Promise.resolve(found);
    return this.serial<{ status: WorktreeStatus | null; unavailable: string | null }>(async () => {
      const worktree = this.deps.stores.worktrees.activeFor(sessionId);
      const unavailable = await this.unavailable;
      if (worktree === null || unavailable !== null) return ok({ status: null, unavailable });
      if (!existsSync(worktree.path))
        return ok({ status: { worktree, ahead: 0, behind: 0, files: [], present: false }, unavailable });
      const counts = await wt.aheadBehind(this.git, worktree.path, worktree.baseBranch, 'HEAD');
      const from = await wt.mergeBase(this.git, worktree.path, worktree.baseBranch, 'HEAD');
      const files = await wt.changedFiles(
        this.git,
        worktree.path,
        from,
        await wt.snapshotTree(this.git, worktree.path),
      );
      return ok({ status: { worktree, ...counts, files, present: true }, unavailable });
    }, false);
  }

  /** Every file the worktree changed since it left its base branch (committed or not), with its diff. */
  diff(sessionId: string): Promise<Outcome<WorktreeDiff, 'not_found' | 'operation_unavailable'>> {
    return this.serial(async () => {
      const worktree = this.requireActive(sessionId);
      if (!('worktreeId' in worktree)) return worktree;
      const from = await wt.mergeBase(this.git, worktree.path, worktree.baseBranch, 'HEAD');
      const to = await wt.snapshotTree(this.git, worktree.path);
      const files = [];
      for (const file of await wt.changedFiles(this.git, worktree.path, from, to)) {
        const diff = await wt.fileDiff(this.git, worktree.path, from, to, file.path);
        files.push({
          ...file,
          diff:
            diff.length > MAX_DIFF_CHARS
              ? `${diff.slice(0, MAX_DIFF_CHARS)}\n… (diff cut at ${MAX_DIFF_CHARS} characters)`
              : diff,
        });
      }
      return ok({ worktree, files });
    });
  }

  /**
   * Commits the worktree's uncommitted work, then brings its branch into the base branch: a
   * fast-forward where the base has not moved, a merge commit otherwise. A conflict, or uncommitted
   * changes in the base checkout to files the merge would change, refuse it with the files named and
   * the base checkout as it was. Once merged, the worktree and its branch go and the session works in
   * the base checkout again.
   */
  merge(
    sessionId: string,
  ): Promise<Outcome<WorktreeMergeResult, 'not_found' | 'operation_unavailable' | 'session_busy'>> {
    return this.serial<WorktreeMergeResult, 'not_found' | 'session_busy'>(async () => {
      const worktree = this.requireActive(sessionId);
      if (!('worktreeId' in worktree)) return worktree;
      const busy = this.busy(sessionId, 'merge it back');
      if (busy !== null) return busy;
      const session = this.deps.stores.sessions.get(sessionId);
      const title = session?.title ?? sessionId;
      await wt.commitPending(this.git, worktree.path, `Cairn session “${title}”: work from ${worktree.branch}`);
      const baseTip = await wt.revParse(this.git, worktree.repoRoot, `refs/heads/${worktree.baseBranch}`);
      const branchTip = await wt.revParse(this.git, worktree.path, 'HEAD');
      const plan = await wt.planMerge(
        this.git,
        worktree.repoRoot,
        baseTip,
        branchTip,
        `Merge ${worktree.branch} (Cairn session “${title}”)`,
      );
      if (plan.kind === 'conflict') return ok({ status: 'conflict', reason: 'merge', files: plan.files });
      if (plan.kind !== 'up_to_date') {
        if ((await wt.currentBranch(this.git, worktree.repoRoot)) === worktree.baseBranch) {
          const dirty = await wt.uncommittedPaths(this.git, worktree.repoRoot);
          const touched = (await wt.changedFiles(this.git, worktree.repoRoot, baseTip, plan.commit))
            .map((file) => file.path)
            .filter((file) => dirty.has(file));
          if (touched.length > 0) return ok({ status: 'conflict', reason: 'uncommitted', files: touched.sort() });
        }
        await wt.advanceBase(this.git, worktree.repoRoot, worktree.baseBranch, baseTip, plan.commit);
      }
      const ended = await this.end(worktree, 'merged');
      return ok({
        status: 'merged',
        mode: plan.kind === 'merge_commit' ? 'merge_commit' : 'fast_forward',
        commit: plan.commit,
        worktree: ended,
      });
    });
  }

  /** Merges the base branch into the worktree, so conflicts with it are resolved there; conflicted files are left marked. */
  update(
    sessionId: string,
  ): Promise<Outcome<WorktreeUpdateResult, 'not_found' | 'operation_unavailable' | 'session_busy'>> {
    return this.serial<WorktreeUpdateResult, 'not_found' | 'session_busy'>(async () => {
      const worktree = this.requireActive(sessionId);
      if (!('worktreeId' in worktree)) return worktree;
      const busy = this.busy(sessionId, 'bring the base branch in');
      if (busy !== null) return busy;
      const title = this.deps.stores.sessions.get(sessionId)?.title ?? sessionId;
      await wt.commitPending(this.git, worktree.path, `Cairn session “${title}”: work from ${worktree.branch}`);
      const conflicted = await wt.mergeBaseIntoWorktree(this.git, worktree.path, worktree.baseBranch);
      this.deps.bus.publish({ kind: 'worktree.changed', sessionId, worktree });
      if (conflicted.length > 0) return ok({ status: 'conflict', files: conflicted.sort() });
      return ok({ status: 'updated', commit: await wt.revParse(this.git, worktree.path, 'HEAD') });
    });
  }

  /** Removes the worktree and its branch with whatever they hold; the session works in the base checkout again. A retry is done. */
  discard(
    sessionId: string,
  ): Promise<Outcome<{ worktree: WorktreeRecord }, 'not_found' | 'operation_unavailable' | 'session_busy'>> {
    return this.serial(async () => {
      const { stores } = this.deps;
      if (stores.sessions.get(sessionId) === null) return fail('not_found', 'That session does not exist.');
      const worktree = stores.worktrees.activeFor(sessionId);
      if (worktree === null) {
        const last = stores.worktrees.latestFor(sessionId);
        return last?.state === 'discarded'
          ? ok({ worktree: last })
          : fail('not_found', 'This session has no worktree.');
      }
      const busy = this.busy(sessionId, 'discard its worktree');
      if (busy !== null) return busy;
      return ok({ worktree: await this.end(worktree, 'discarded') });
    });
  }

  /** The worktree's folder, for the person to open (the headless host has no shell to open it in). */
  open(sessionId: string): Outcome<{ path: string }, 'not_found'> {
    const worktree = this.requireActive(sessionId);
    if (!('worktreeId' in worktree)) return worktree;
    if (!existsSync(worktree.path)) return fail('not_found', `The worktree folder ${worktree.path} is gone.`);
    return ok({ path: worktree.path });
  }

  /** Worktrees no session works in (left by a crash or a removed session), found now. */
  leftovers(): Promise<Outcome<{ leftovers: WorktreeLeftover[] }, 'operation_unavailable'>> {
    return this.serial<{ leftovers: WorktreeLeftover[] }>(async () => ok({ leftovers: await this.findLeftovers() }));
  }

  /** Removes a leftover worktree (its folder and branch); the session it belonged to, if any, works in the base checkout again. A retry is done. */
  discardLeftover(folder: string): Promise<Outcome<{ leftovers: WorktreeLeftover[] }, 'operation_unavailable'>> {
    return this.serial<{ leftovers: WorktreeLeftover[] }>(async () => {
      const leftover = (await this.findLeftovers()).find((found) => path.resolve(found.path) === path.resolve(folder));
      if (leftover?.worktree != null) await this.end(leftover.worktree, 'discarded');
      else if (leftover !== undefined)
        await removeUnknownFolder(this.git, this.deps.stores.worktrees, this.deps.dataDir, leftover.path);
      return ok({ leftovers: await this.findLeftovers() });
    });
  }

  /** Keeps a leftover worktree as it is: not listed again, across restarts. Folders no longer left behind are forgotten. A retry is done. */
  keepLeftover(folder: string): Promise<Outcome<{ leftovers: WorktreeLeftover[] }, 'operation_unavailable'>> {
    return this.serial<{ leftovers: WorktreeLeftover[] }>(async () => {
      const stillLeft = new Set((await this.allLeftovers()).map((leftover) => path.resolve(leftover.path)));
      const kept = new Set([...this.keptFolders(), path.resolve(folder)].filter((kept) => stillLeft.has(kept)));
      this.deps.stores.settings.set(KEPT_LEFTOVERS, [...kept].sort());
      return ok({ leftovers: await this.findLeftovers() });
    });
  }

  /** At start: says (in the log) which worktrees were left behind; `worktree.leftovers` lists them for the person. */
  async recover(): Promise<void> {
    const listed = await this.leftovers();
    if (listed.ok && listed.result.leftovers.length > 0) {
      this.deps.logger.warn('Worktrees were left behind; list them with worktree.leftovers', {
        count: listed.result.leftovers.length,
      });
    }
  }

  /** Waits for the git step under way (a merge is never cut in the middle by a clean stop). */
  async shutdown(): Promise<void> {
    await this.queue;
  }

  /**
   * Runs `work` after every earlier git step of this service; an unusable git answers
   * `operation_unavailable`, unless `gate` is false.
   */
  private serial<T, C extends ErrorCode = never>(
    work: () => Promise<Outcome<T, C>>,
    gate?: true,
  ): Promise<Outcome<T, C | 'operation_unavailable'>>;
  private serial<T, C extends ErrorCode = never>(
    work: () => Promise<Outcome<T, C>>,
    gate: false,
  ): Promise<Outcome<T, C>>;
  private serial<T, C extends ErrorCode = never>(
    work: () => Promise<Outcome<T, C>>,
    gate = true,
  ): Promise<Outcome<T, C | 'operation_unavailable'>> {
    const run = async (): Promise<Outcome<T, C | 'operation_unavailable'>> => {
      const unavailable = await this.unavailable;
      if (gate && unavailable !== null) return fail('operation_unavailable', unavailable);
      return work();
    };
    const next = this.queue.then(run, run);
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** Leftovers the person has not chosen to keep. */
  private async findLeftovers(): Promise<WorktreeLeftover[]> {
    const kept = new Set(this.keptFolders());
    return (await this.allLeftovers()).filter((leftover) => !kept.has(path.resolve(leftover.path)));
  }

  private allLeftovers(): Promise<WorktreeLeftover[]> {
    const { stores, dataDir } = this.deps;
    return findLeftovers(this.git, stores.worktrees, (sessionId) => stores.sessions.get(sessionId) !== null, dataDir);
  }

  private keptFolders(): string[] {
    const kept = this.deps.stores.settings.get<unknown>(KEPT_LEFTOVERS);
    return Array.isArray(kept) ? kept.filter((folder): folder is string => typeof folder === 'string') : [];
  }

  private async headOf(folder: string): Promise<wt.RepoHead | { reason: string }> {
    if (!existsSync(folder)) return { reason: `The folder ${folder} does not exist.` };
    return wt.repoHead(this.git, folder);
  }

  private busy(sessionId: string, what: string): Outcome<never, 'session_busy'> | null {
    return this.deps.stores.turns.activeTurn(sessionId) === null
      ? null
      : fail('session_busy', `A turn is running in this session; ${what} when it has ended.`);
  }

  private activeOf(sessionId: string): Outcome<WorktreeRecord | null, 'not_found'> {
    if (this.deps.stores.sessions.get(sessionId) === null) return fail('not_found', 'That session does not exist.');
    return ok(this.deps.stores.worktrees.activeFor(sessionId));
  }

  private requireActive(sessionId: string): WorktreeRecord | Outcome<never, 'not_found'> {
    const found = this.activeOf(sessionId);
    if (!found.ok) return found;
    return found.result ?? fail('not_found', 'This session has no worktree.');
  }

  /** Removes the worktree and branch, ends the record and moves the session back to the base checkout. */
  private async end(worktree: WorktreeRecord, state: 'merged' | 'discarded'): Promise<WorktreeRecord> {
    const { stores, clock } = this.deps;
    await wt.removeWorktree(this.git, worktree.repoRoot, worktree.path, worktree.branch);
    const changed = stores.transaction(() => {
      stores.worktrees.end(worktree.worktreeId, state, clock.now());
      const session = stores.sessions.get(worktree.sessionId);
      const workspace = session?.workspacePath ?? null;
      const back =
        workspace !== null && isInside(workspace, worktree.path)
          ? path.join(worktree.repoRoot, path.relative(worktree.path, workspace))
          : worktree.repoRoot;
      return {
        worktree: stores.worktrees.get(worktree.worktreeId) ?? worktree,
        session: session === null ? null : this.moveSession(session, back),
      };
    });
    this.publish(changed.session, changed.worktree);
    return changed.worktree;
  }

  private moveSession(session: SessionRecord, workspacePath: string): SessionRecord {
    const { stores, clock } = this.deps;
    stores.sessions.configure(
      session.sessionId,
      {
        connectionId: session.connectionId,
        model: session.model,
        permissionMode: session.permissionMode,
        workspacePath,
      },
      clock.now(),
    );
    return stores.sessions.get(session.sessionId) ?? session;
  }

  private publish(session: SessionRecord | null, worktree: WorktreeRecord): void {
    if (session !== null) this.deps.bus.publish({ kind: 'session.changed', session });
    this.deps.bus.publish({ kind: 'worktree.changed', sessionId: worktree.sessionId, worktree });
  }
}
