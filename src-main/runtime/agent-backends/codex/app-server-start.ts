import { mkdirSync } from 'node:fs';
import type { PermissionMode } from '../../../../src-shared/model';
import { AgentBackendError } from '../../contract/agent-backend';
import { processStartIdentity } from '../../shell/process-identity';
import { checkThreadOwner, openThread, ThreadUnavailable } from '../agent-process/thread-binding';
import { codexVersion } from '../../connections/codex-binary';
import type { CodexTarget } from '../../connections/codex-connection';
import { appServerLaunch, codexPolicies, type CodexSettings } from './codex-config';
import { threadResultSchema } from './codex-protocol';
import type { CodexContext, RunRef, SessionState } from './codex-session-state';
import { processGroupOf } from '../../shell/process-tree';
import { BackgroundCommands } from './background-commands';
import { clearThreadGoal } from './goal-mirror';
import { LiveAppServer } from './live-app-server';

/** Where Cairn keeps Codex's own state and temporary files. */
export interface CodexFolders {
  readonly codexHome: string;
  readonly tmpDir: string;
}

/**
 * Starting a session's app-server: spawn it, initialize, resume the thread of its resume point (or start
 * one) and bind the session to it with this app-server instance.
 */
export function createAppServerStarter(ctx: CodexContext, folders: CodexFolders) {
  const { deps, bounds } = ctx;
  const versions = new Map<string, string>();

  async function versionOf(binary: string): Promise<string | null> {
    const known = versions.get(binary);
    if (known !== undefined) return known;
    try {
      const version = await codexVersion(binary, bounds.requestMs);
      versions.set(binary, version);
      return version;
    } catch {
      return null;
    }
  }

  /** The thread cannot be used: recorded for the person to choose, and the turn fails with what was wrong. */
  function unavailable(run: RunRef, problem: ThreadUnavailable): AgentBackendError {
    const noted = ctx.threads.noteProblem(
      { sessionId: run.sessionId, threadId: problem.threadId, turnId: run.turnId, reason: problem.reason },
      deps.now(),
    );
    deps.onThreadProblem(run.sessionId, noted);
    return new AgentBackendError(
      'thread_unavailable',
      `Codex could not resume this session's thread ${problem.threadId}: ${problem.reason}. Cairn did not start a new thread on its own: start a new Codex thread (it begins from a summary of this conversation) or retry.`,
      'thread_unavailable',
    );
  }

  /** Its identity, recorded at spawn so a later host can tell a leftover from a reused pid; forgotten once it is gone. */
  function recordIdentity(sessionId: string, live: LiveAppServer): void {
    const pid = live.process.pid;
    if (pid === null) return;
    ctx.appServers.spawned(sessionId, pid, processStartIdentity(pid), deps.now());
    void live.process.exited.then(() => {
      if (!ctx.closed && live.process.isGone()) ctx.appServers.gone(sessionId, pid);
    });
  }

  return async function start(
    run: RunRef,
    target: CodexTarget,
    cwd: string,
    mode: PermissionMode,
  ): Promise<SessionState> {
    const { sessionId } = run;
    const resumePoint = ctx.codexStore.resumePoint(sessionId);
    try {
      checkThreadOwner(sessionId, resumePoint?.threadId ?? null, ctx.threads);
    } catch (error) {
      if (error instanceof ThreadUnavailable) throw unavailable(run, error);
      throw error;
    }
    const settings: CodexSettings = { ...target, ...folders };
    mkdirSync(folders.codexHome, { recursive: true });
    mkdirSync(folders.tmpDir, { recursive: true });
    const version = await versionOf(target.binary);
    const live = new LiveAppServer(deps.newInstanceId(), appServerLaunch(settings, cwd), launchKey(target, cwd));
    recordIdentity(sessionId, live);
    const policies = codexPolicies(mode);
    try {
      await live.initialize(deps.cairnVersion, bounds);
      const threadParams = {
        model: target.model,
        cwd,
        approvalPolicy: policies.approvalPolicy,
        sandbox: policies.sandbox,
      };
      const threadIdOf = (result: unknown) => threadResultSchema.parse(result).thread.id;
      const opened = await openThread(
        sessionId,
        resumePoint?.threadId ?? null,
        ctx.threads,
        {
          resume: async (threadId) =>
            threadIdOf(await live.rpc.request('thread/resume', { threadId, ...threadParams }, bounds.requestMs)),
          start: async () => threadIdOf(await live.rpc.request('thread/start', threadParams, bounds.requestMs)),
        },
        deps.now,
      );
      live.threadId = opened.threadId;
      // Recorded before the session is bound to the new thread: from then on the thread itself says it
      // owes the summary, until a turn on it starts (a failed turn/start or a restart keeps it owed).
      if (opened.kind === 'new' && opened.replacing !== null) ctx.threads.resolve(sessionId, opened.threadId);
      ctx.codexStore.bind(
        sessionId,
        { threadId: live.threadId, instanceId: live.instanceId, codexVersion: version },
        deps.now(),
      );
      if (opened.kind === 'new' && opened.replacing !== null) {
        deps.onThreadProblem(sessionId, ctx.threads.problem(sessionId));
      } else if (opened.kind === 'resumed' && ctx.threads.problem(sessionId) !== null) {
        ctx.threads.clear(sessionId);
        deps.onThreadProblem(sessionId, null);
      }
      // Cairn's goal record is the truth: a goal cleared while no app-server ran (even across a host
      // restart) is cleared on the resumed thread before it does anything else.
      if (opened.kind === 'resumed' && !deps.hasGoal(sessionId)) {
        await clearThreadGoal(live, bounds.requestMs).catch((error: unknown) => {
          deps.logger.warn('Codex did not clear the thread goal', { sessionId, error: String(error) });
        });
      }
    } catch (error) {
      await live.process.terminate(bounds.killGraceMs, bounds.killConfirmMs);
      if (error instanceof ThreadUnavailable) throw unavailable(run, error);
      const tail = live.process.stderrTail();
      throw new AgentBackendError(
        'agent_start_failed',
        `Codex could not start: ${error instanceof Error ? error.message : String(error)}${tail === '' ? '' : `\n${tail}`}`,
        'agent_start_failed',
      );
    }
    const appServerPid = live.process.pid ?? 0;
    const background = new BackgroundCommands(
      deps.commands,
      ctx.codexStore,
      bounds,
      () => processGroupOf(appServerPid) ?? appServerPid,
    );
    live.divert(({ method, params, seq }) => {
      if (!background.holds(method, params)) return false;
      if (ctx.codexStore.claim(sessionId, live.instanceId, seq)) background.take(method, params);
      return true;
    });
    void live.process.exited.then(() => {
      if (!ctx.closed) void background.stopAll('Its Codex app-server ended, so Cairn stopped it.');
    });
    const state: SessionState = {
      live,
      model: target.model,
      run: null,
      mapper: null,
      commands: null,
      processes: null,
      background,
      pending: null,
      goalId: null,
      structured: false,
    };
    ctx.states.set(sessionId, state);
    return state;
  };
}

/** What an app-server was started with: a turn with different settings needs a new one. */
export function launchKey(target: CodexTarget, cwd: string): string {
  return JSON.stringify([
    target.binary,
    target.model,
    target.baseUrl,
    target.apiKey === null ? null : 'key',
    target.retries ?? null,
    target.extraConfig ?? [],
    cwd,
  ]);
}
