import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { createAppServerQuarantine } from './app-server-quarantine';
import { createAppServerStarter } from './app-server-start';
import { CODEX_BACKEND_ID, type CodexBackend, type CodexBackendDeps } from './codex-backend-deps';
import { listCodexModels } from './codex-models';
import { appServerLaunch, codexHomeOf } from './codex-config';
import { createCodexRuns } from './codex-runs';
import type { CodexContext, SessionState } from './codex-session-state';
import { clearThreadGoal } from './goal-mirror';
import { DEFAULT_BOUNDS, type CodexBounds } from './live-app-server';
import { createTurnReader } from './turn-reader';
import { DEFAULT_WARM_LIMITS, WarmAppServers } from './warm-app-servers';

export { CODEX_BACKEND_ID, type CodexBackend, type CodexBackendDeps } from './codex-backend-deps';

/**
 * Codex as a native AgentBackend: one `codex app-server` per session, kept between turns (stopped
 * when idle, or as the least recently used beyond the warm cap; see `WarmAppServers`), driving one
 * Codex thread whose id is kept as its resume point. Every message is numbered per instance and applied once.
 * Approvals and questions suspend the run as Cairn interactions while Codex waits; the answer's run
 * replies to the live request, or, when the host restarted meanwhile, resumes the thread with the
 * answer as input. Stop interrupts the Codex turn, and kills the process group when that is not
 * confirmed within the bound.
 */
export function createCodexBackend(deps: CodexBackendDeps): CodexBackend {
  const bounds: CodexBounds = { ...DEFAULT_BOUNDS, ...deps.bounds };
  const states = new Map<string, SessionState>();
  const codexHome = codexHomeOf(deps.dataDir);
  const tmpDir = join(deps.dataDir, 'codex', 'tmp');
  const quarantine = createAppServerQuarantine(deps, bounds, () => ctx.closed);
  const ctx: CodexContext = {
    deps,
    codexStore: deps.codexStore,
    threads: deps.threads,
    appServers: deps.appServers,
    bounds,
    states,
    quarantine,
    closed: false,
    async retire(sessionId, state) {
      if (states.get(sessionId) === state) states.delete(sessionId);
      // Its commands run in process groups of their own: ended first, while they are still its children.
      await state.background.stopAll('Its Codex app-server was stopped, so Cairn stopped it.');
      await quarantine.retireProcess(sessionId, state.live.process);
    },
  };
  quarantine.stopLeftovers();
  const runs = createCodexRuns(ctx, createAppServerStarter(ctx, { codexHome, tmpDir }), createTurnReader(ctx));
  const warm = new WarmAppServers({ ...DEFAULT_WARM_LIMITS, ...deps.warm }, states, ctx.retire);

  return {
    id: CODEX_BACKEND_ID,
    run: (input, signal) => warm.use(input.sessionId, runs.run(input, signal)),
    compact: (input, signal) => warm.use(input.sessionId, runs.compact(input, signal)),
    quarantined: (sessionId) => quarantine.quarantineOf(sessionId) !== null,
    quarantineOf: quarantine.quarantineOf,
    forceStop: quarantine.forceStop,
    async releaseWaiting(sessionId) {
      const state = states.get(sessionId);
      if (state?.pending != null) await ctx.retire(sessionId, state);
    },
    clearGoal(sessionId) {
      const live = states.get(sessionId)?.live;
      if (live === undefined || live.threadId === null || live.process.hasExited) return;
      clearThreadGoal(live, bounds.requestMs).catch((error: unknown) => {
        // The next app-server that resumes the thread clears it (see `start`).
        deps.logger.warn('Codex did not clear the thread goal', { sessionId, error: String(error) });
      });
    },
    async listModels(connectionId) {
      const target = deps.resolve(connectionId, null);
      if ('error' in target) throw new Error(target.error);
      mkdirSync(codexHome, { recursive: true });
      mkdirSync(tmpDir, { recursive: true });
      return listCodexModels(appServerLaunch({ ...target, codexHome, tmpDir }, tmpDir), deps.cairnVersion, bounds);
    },
    async shutdown() {
      warm.close();
      await Promise.all([...states.entries()].map(([sessionId, state]) => ctx.retire(sessionId, state)));
      ctx.closed = true;
    },
  };
}
