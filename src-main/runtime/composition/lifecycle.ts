import type { Automations } from '../automations/automations';
import type { BranchService } from '../branches/branch-service';
import type { TitleWriter } from '../sessions/title-writer';
import type { CodexBackend } from '../agent-backends/codex/codex-backend';
import type { AcpBackend } from '../agent-backends/acp/acp-backend';
import type { AcpInstaller } from '../agent-backends/acp/acp-installer';
import type { AcpLogins } from '../agent-backends/acp/acp-logins';
import type { CheckpointService } from '../checkpoints/checkpoint-service';
import type { WorktreeService } from '../worktrees/worktree-service';
import type { GoalDriver } from '../goals/goal-driver';
import type { HookService } from '../hooks/hook-service';
import type { AdmissionGate } from '../lifecycle/admission-gate';
import type { McpServerService } from '../mcp/mcp-server-service';
import type { MemoryService } from '../memory/memory-service';
import { recoverInterruptedRuns, type RecoveryReport } from '../turns/recovery';
import { APP_SHUTDOWN, type RunExecutor } from '../turns/run-executor';
import type { ShellService } from '../shell/shell-service';
import type { TurnService } from '../turns/turn-service';
import type { SearchIndexer } from '../workhub/search-indexer';
import type { WorkHubService } from '../workhub/workhub-service';
import type { RuntimeDeps } from './runtime-contract';

/** What starts work again after a restart and what lets go of it at shutdown. */
export interface LifecycleParts {
  readonly admission: AdmissionGate;
  readonly executor: RunExecutor;
  readonly turns: TurnService;
  readonly driver: GoalDriver;
  readonly branches: BranchService;
  readonly shell: ShellService;
  readonly hooks: HookService;
  readonly workhub: WorkHubService;
  readonly indexer: SearchIndexer;
  readonly automations: Automations;
  readonly memory: MemoryService;
  readonly mcp: McpServerService;
  readonly titles: TitleWriter;
  readonly codex: CodexBackend;
  readonly acp: AcpBackend;
  readonly acpInstaller: AcpInstaller;
  readonly acpLogins: AcpLogins;
  readonly checkpoints: CheckpointService;
  readonly worktrees: WorktreeService;
}

/** Closes what the previous host left open and restarts queued work; call before serving. */
export function recoverRuntime(
  runtime: Pick<RuntimeDeps, 'stores' | 'clock' | 'logger'>,
  parts: LifecycleParts,
): RecoveryReport {
  const report = recoverInterruptedRuns(runtime.stores, runtime.clock, runtime.logger);
  parts.branches.recover();
  const orphans = parts.shell.recover();
  if (Object.values(orphans).some((count) => count > 0))
    runtime.logger.info('Closed shell runs the previous host left behind', { ...orphans });
  const hooks = parts.hooks.stopLeftovers();
  if (hooks > 0) runtime.logger.info('Stopped hooks the previous host left running', { processes: hooks });
  parts.workhub.ensureSession();
  parts.indexer.catchUp();
  for (const sessionId of runtime.stores.queue.sessionsWithQueued()) parts.turns.drainQueue(sessionId);
  parts.driver.resumeAll();
  parts.automations.scheduler.start();
  parts.memory.announce();
  parts.mcp.reconnectEnabled();
  parts.checkpoints.recoverInBackground();
  void parts.worktrees.recover();
  return report;
}

/** Closes admission, ends live runs as interrupted (resumable) and waits briefly for their backends to let go. */
export async function shutdownRuntime(parts: LifecycleParts, graceMs: number): Promise<void> {
  parts.admission.close();
  parts.automations.scheduler.stop();
  parts.titles.abortAll();
  await parts.executor.endAll({ status: 'interrupted', terminalReason: APP_SHUTDOWN }, graceMs);
  await parts.shell.shutdown();
  await parts.codex.shutdown();
  await parts.acp.shutdown();
  await parts.acpInstaller.shutdown();
  await parts.acpLogins.shutdown();
  await parts.checkpoints.shutdown();
  await parts.worktrees.shutdown();
  await parts.mcp.shutdown();
}
