import { mkdirSync } from 'node:fs';
import type { PermissionMode } from '../../../src-shared/model';
import { AgentBackendError } from '../backends/agent-backend';
import { openThread } from '../native-agent/thread-binding';
import { codexVersion } from './codex-binary';
import type { CodexTarget } from './codex-backend-deps';
import { appServerLaunch, codexPolicies, type CodexSettings } from './codex-config';
import { threadResultSchema } from './codex-protocol';
import type { CodexContext, SessionState } from './codex-session-state';
import { clearThreadGoal } from './goal-mirror';
import { LiveAppServer } from './live-app-server';

/** Where Cairn keeps Codex's own state and temporary files. */
export interface CodexFolders {
  readonly codexHome: string;
  readonly tmpDir: string;
}

/**
 * Starting a session's app-server: spawn it, initialize, resume the checkpointed thread (or start
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

  return async function start(sessionId: string, target: CodexTarget, cwd: string, mode: PermissionMode): Promise<SessionState> {
    const settings: CodexSettings = { ...target, ...folders };
    mkdirSync(folders.codexHome, { recursive: true });
    mkdirSync(folders.tmpDir, { recursive: true });
    const version = await versionOf(target.binary);
    const live = new LiveAppServer(deps.newInstanceId(), appServerLaunch(settings, cwd), launchKey(target, cwd));
    const policies = codexPolicies(mode);
    try {
      await live.initialize(deps.cairnVersion, bounds);
      const checkpoint = ctx.checkpoints.checkpoint(sessionId);
      const threadParams = { model: target.model, cwd, approvalPolicy: policies.approvalPolicy, sandbox: policies.sandbox };
      const threadIdOf = (result: unknown) => threadResultSchema.parse(result).thread.id;
      const opened = await openThread(
        checkpoint?.threadId ?? null,
        {
          resume: async (threadId) => threadIdOf(await live.rpc.request('thread/resume', { threadId, ...threadParams }, bounds.requestMs)),
          start: async () => threadIdOf(await live.rpc.request('thread/start', threadParams, bounds.requestMs)),
        },
        (error) => deps.logger.warn('Codex could not resume the thread; starting a new one', { sessionId, threadId: checkpoint?.threadId, error: String(error) }),
      );
      live.threadId = opened.threadId;
      ctx.checkpoints.bind(sessionId, { threadId: live.threadId, instanceId: live.instanceId, codexVersion: version }, deps.now());
      // Cairn's goal record is the truth: a goal cleared while no app-server ran (even across a host
      // restart) is cleared on the resumed thread before it does anything else.
      if (checkpoint !== null && !deps.hasGoal(sessionId)) {
        await clearThreadGoal(live, bounds.requestMs).catch((error: unknown) => {
          deps.logger.warn('Codex did not clear the thread goal', { sessionId, error: String(error) });
        });
      }
    } catch (error) {
      await live.process.terminate(bounds.killGraceMs, bounds.killConfirmMs);
      const tail = live.process.stderrTail();
      throw new AgentBackendError('agent_start_failed', `Codex could not start: ${error instanceof Error ? error.message : String(error)}${tail === '' ? '' : `\n${tail}`}`, 'agent_start_failed');
    }
    const state: SessionState = { live, model: target.model, run: null, mapper: null, commands: null, pending: null, goalId: null, structured: false };
    ctx.states.set(sessionId, state);
    return state;
  };
}

/** What an app-server was started with: a turn with different settings needs a new one. */
export function launchKey(target: CodexTarget, cwd: string): string {
  return JSON.stringify([target.binary, target.model, target.baseUrl, target.apiKey === null ? null : 'key', target.retries ?? null, target.extraConfig ?? [], cwd]);
}
