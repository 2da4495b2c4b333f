import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Stores } from '../../storage/stores';
import { afterRef, beforeRef } from './checkpoint-recorder';
import type { ShadowRepo } from './shadow-git';
import { shadowDirFor } from './shadow-git-setup';

export interface ReleaseDeps {
  readonly stores: Pick<Stores, 'checkpoints' | 'turns'>;
  readonly dataDir: string;
  readonly repoFor: (workspace: string) => ShadowRepo;
}

/**
 * Drops the refs of change sets whose sessions were removed, one workspace's shadow repository at a
 * time (serialised with its checkpoints); git counts what other sessions' refs and the workspace's
 * index still reach. Objects nothing reaches any more are pruned only while no run is going (a
 * checkpoint being written has objects no ref reaches yet); otherwise at the next removal.
 */
export async function releaseRemovedCheckpoints(deps: ReleaseDeps): Promise<void> {
  const byWorkspace = new Map<string, string[]>();
  for (const { changeSetId, workspacePath } of deps.stores.checkpoints.released()) {
    byWorkspace.set(workspacePath, [...(byWorkspace.get(workspacePath) ?? []), changeSetId]);
  }
  const idle = () => deps.stores.turns.runningRuns().length === 0;
  await Promise.all(
    [...byWorkspace].map(async ([workspace, changeSetIds]) => {
      if (!existsSync(join(shadowDirFor(deps.dataDir, workspace), 'HEAD'))) {
        for (const id of changeSetIds) deps.stores.checkpoints.forgetReleased(id);
        return;
      }
      const repo = deps.repoFor(workspace);
      await repo.exclusive(async () => {
        const deletions = changeSetIds.flatMap((id) => [`delete ${beforeRef(id)}`, `delete ${afterRef(id)}`]);
        await repo.git(['update-ref', '--stdin'], { input: `${deletions.join('\n')}\n` });
        for (const id of changeSetIds) deps.stores.checkpoints.forgetReleased(id);
        if (!idle()) return;
        await repo.git(['reflog', 'expire', '--expire=now', '--all'], { background: true });
        await repo.git(['gc', '--prune=now', '--quiet'], { background: true });
      });
    }),
  );
}
