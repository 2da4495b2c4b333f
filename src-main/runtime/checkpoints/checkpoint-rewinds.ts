import type {
  ChangeSetRecord,
  ConflictResolution,
  RewindPlan,
  RewindResult,
} from '../../../src-shared/checkpoint-model';
import { fail, ok, type ErrorCode, type Outcome } from '../../../src-shared/errors';
import type { SessionRecord } from '../../../src-shared/model';
import type { Stores } from '../../storage/stores';
import { branchLineage } from './branch-lineage';
import type { CheckpointRecorder } from './checkpoint-recorder';
import { restoreFiles, writeBeside } from './revert-files';
import { byBefore, compareForRewind, rewindPaths, type RewindComparison } from './rewind-plan';
import type { ShadowRepo } from './shadow-git';

/** Why a rewind (or its plan) changes nothing: no shadow repository, or a turn running in the session. */
export type RewindRefusal = 'operation_unavailable' | 'session_busy';

export interface RewindRequest<C extends ErrorCode = ErrorCode> {
  readonly sessionId: string;
  /** The turn rewound to (its files go back to before it). */
  readonly turnId: string;
  /** When that turn began: every change set since is rewound. */
  readonly since: number;
  readonly resolution?: ConflictResolution | undefined;
  /** Makes the branch holding the conversation before the turn, once the files are known to go back. */
  readonly branch: () => Promise<Outcome<SessionRecord, C>>;
}

export interface RewindsDeps {
  readonly stores: Pick<Stores, 'sessions' | 'turns' | 'checkpoints' | 'branches' | 'worktrees'>;
  readonly recorder: CheckpointRecorder;
  readonly repoFor: (workspace: string) => ShadowRepo;
  readonly unavailable: () => Promise<string | null>;
  readonly workspaceGone: (workspacePath: string) => string | null;
  readonly publicRecord: (changeSetId: string) => ChangeSetRecord | null;
}

/**
 * Rewinds' files: what a rewind to before a turn would put back (its plan) and putting it back as a
 * change set of the branch the rewind makes. The service runs them one at a time with reverts.
 */
export class Rewinds {
  constructor(private readonly deps: RewindsDeps) {}

  async plan(input: { sessionId: string; since: number }): Promise<Outcome<RewindPlan, RewindRefusal>> {
    const found = await this.targets(input.sessionId, input.since);
    if (!found.ok) return found;
    if (found.result === null)
      return ok({ files: [], hasWorkspace: this.deps.stores.sessions.get(input.sessionId)?.workspacePath != null });
    const { pending, conflicts, actions } = found.result;
    const files = pending
      .map((item) => ({
        path: item.path,
        action: actions.get(item.path) ?? 'change',
        changedSince: conflicts.includes(item),
      }))
      .sort((a, b) => a.path.localeCompare(b.path));
    return ok({ files, hasWorkspace: true });
  }

  /**
   * The files a rewind to `since` puts back, compared with the workspace now, or why it cannot be
   * done; null when the later turns changed no file (the rewind is of the conversation only).
   */
  private async targets(
    sessionId: string,
    since: number,
  ): Promise<Outcome<(RewindComparison & { workspace: string; repo: ShadowRepo }) | null, RewindRefusal>> {
    const { stores } = this.deps;
    if (stores.turns.activeTurn(sessionId) !== null)
      return fail('session_busy', 'A turn is running in this session; rewind when it has ended.');
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
      const gone = this.deps.workspaceGone(folder);
      if (gone !== null) return fail('operation_unavailable', gone);
    }
    if (workspaces.size > 1)
      return fail(
        'operation_unavailable',
        'The later turns changed files in more than one workspace folder; revert them turn by turn instead.',
      );
    const [workspace] = workspaces;
    if (workspace === undefined) return ok(null);
    const unavailable = await this.deps.unavailable();
    if (unavailable !== null) return fail('operation_unavailable', unavailable);
    const repo = this.deps.repoFor(workspace);
    const now = await repo.exclusive(() => repo.snapshot());
    return ok({ ...(await compareForRewind(repo, rewindPaths(changed), now.tree)), workspace, repo });
  }

  async rewind<C extends ErrorCode>(input: RewindRequest<C>): Promise<Outcome<RewindResult, C | RewindRefusal>> {
    const found = await this.targets(input.sessionId, input.since);
    if (!found.ok) return found;
    if (found.result === null) return this.rewound(await input.branch(), null);
    const { conflicts, pending, workspace, repo } = found.result;
    if (conflicts.length > 0 && input.resolution === undefined)
      return ok({ status: 'conflict', files: conflicts.map((item) => item.path) });
    const targets =
      input.resolution === 'take_checkpoint' ? pending : pending.filter((item) => !conflicts.includes(item));
    const beside = input.resolution === 'open_both' ? conflicts : [];
    const branch = await input.branch();
    if (!branch.ok || targets.length + beside.length === 0) return this.rewound(branch, null);
    const recording = await this.deps.recorder.begin(branch.result.sessionId, input.turnId, workspace, {
      origin: 'rewind',
      revertsChangeSetId: null,
    });
    if (recording === null)
      return fail(
        'operation_unavailable',
        'The checkpoint before the rewind could not be written, so no file was changed (the branch was made).',
      );
    try {
      for (const [before, paths] of byBefore(targets)) await restoreFiles(repo, paths, before);
      for (const [before, paths] of byBefore(beside)) await writeBeside(repo, paths, before);
    } finally {
      await this.deps.recorder.finish(branch.result.sessionId, input.turnId, { kind: 'revert' });
    }
    return this.rewound(branch, this.deps.publicRecord(recording.changeSetId));
  }

  private rewound<C extends ErrorCode>(
    branch: Outcome<SessionRecord, C>,
    rewind: ChangeSetRecord | null,
  ): Outcome<RewindResult, C> {
    return branch.ok ? ok({ status: 'rewound', session: branch.result, rewind }) : branch;
  }
}
