import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PermissionMode } from '../../../src-shared/model';
import type { Stores } from '../../storage/stores';
import type { Logger } from '../ports/ports';
import { cairnToolInput, claudeToolInput, claudeToolName, matcherMatches } from './claude-tool-shapes';
import { hookVerdict, type HookVerdict } from './hook-outcome';
import { runHookProcess } from './hook-process';
import { newHookMarker, stopLeftoverHooks } from './leftover-hooks';
import type { HookRunReport } from '../contract/hook-run';
import type { HookEventName } from './hook-settings';
import { TOOL_EVENTS } from './hook-settings';
import { readSessionHooks, type ResolvedHook, type SessionHooks } from './hook-sources';

export type { HookRunReport };

/** The tool an event is about, in Cairn's terms; the hook reads it in Claude Code's. */
export interface HookTool {
  readonly name: string;
  readonly input: unknown;
  readonly isMcp?: boolean;
  readonly toolCallId?: string;
  readonly response?: unknown;
}

/** What the hooks of one event decided together. */
export interface HookFiring {
  readonly reports: readonly HookRunReport[];
  /** The first block, with the hook that made it. */
  readonly block: { readonly reason: string; readonly report: HookRunReport } | null;
  readonly allow: boolean;
  readonly ask: boolean;
  /** Every hook's added context, joined. */
  readonly context: string | null;
  readonly updatedInput: Readonly<Record<string, unknown>> | null;
  /** A hook said `continue: false`, or one with `onError: "fail"` crashed or timed out: the turn ends. */
  readonly stop: { readonly reason: string; readonly report: HookRunReport } | null;
}

export const NO_HOOKS: HookFiring = {
  reports: [],
  block: null,
  allow: false,
  ask: false,
  context: null,
  updatedInput: null,
  stop: null,
};

export interface HookEventRequest {
  readonly event: HookEventName;
  readonly sessionId: string;
  readonly tool?: HookTool;
  /** For SessionStart (`startup`, `resume`), PreCompact (`manual`, `auto`): what Claude Code's matcher tests. */
  readonly source?: string;
  /** Event-specific fields in Claude Code's names (`prompt`, `stop_hook_active`, `message`, …). */
  readonly fields?: Readonly<Record<string, unknown>>;
  readonly signal?: AbortSignal;
  /** The folder to run in when there is no session yet (Settings → Test for a new session's folder). */
  readonly workspace?: string;
}

export interface HookServiceDeps {
  readonly stores: Stores;
  readonly logger: Logger;
  readonly dataDir: string;
  readonly homeDir: string;
  /** True when the session's agent runs a workspace's `.claude/settings.json` hooks itself (Claude Code over ACP). */
  readonly agentRunsClaudeProjectHooks: (sessionId: string) => boolean;
}

const SETTING_TRUST = 'hooks.trustedFiles';
const SETTING_DISABLED = 'hooks.disabled';
const SETTING_CLAUDE_USER = 'hooks.useClaudeUserSettings';

/** Claude Code's names for Cairn's permission modes, as a hook reads `permission_mode`. */
const CLAUDE_MODES: Record<PermissionMode, string> = {
  explore: 'plan',
  ask: 'default',
  auto: 'acceptEdits',
  full: 'bypassPermissions',
};

/**
 * The person's hooks: which apply to a session (global, Claude Code's user settings when opted in,
 * the workspace's once trusted), running those an event matches, in parallel, and what they decided.
 * It writes nothing to the record: its callers record each run where the step happens.
 */
export class HookService {
  /** Under every hook run's marker this host gives, so the next host can stop what this one left running. */
  private readonly marker: string;
  private runs = 0;

  constructor(private readonly deps: HookServiceDeps) {
    this.marker = newHookMarker(deps.dataDir);
  }

  /** Stops the hooks an earlier host of this data directory left running; call before serving. */
  stopLeftovers(): number {
    return stopLeftoverHooks(this.deps.dataDir, this.marker);
  }

  /** The hooks that apply to a session now, with the files that could not be read and those awaiting trust. */
  hooksOf(sessionId: string): SessionHooks {
    const session = this.deps.stores.sessions.get(sessionId);
    return this.hooksIn(session?.workspacePath ?? null, this.deps.agentRunsClaudeProjectHooks(sessionId));
  }

  hooksIn(workspace: string | null, agentRunsClaudeProjectHooks = false): SessionHooks {
    const { settings } = this.deps.stores;
    const trusted = settings.get<Record<string, string>>(SETTING_TRUST) ?? {};
    const disabled = new Set(settings.get<string[]>(SETTING_DISABLED) ?? []);
    return readSessionHooks({
      dataDir: this.deps.dataDir,
      homeDir: this.deps.homeDir,
      workspace,
      useClaudeUserSettings: settings.get<boolean>(SETTING_CLAUDE_USER) === true,
      agentRunsClaudeProjectHooks,
      trustedHashOf: (path) => trusted[path] ?? null,
      isDisabled: (id) => disabled.has(id),
    });
  }

  /** Trusts a workspace file's hooks exactly as they are (its hash); a later change asks again. */
  trust(path: string, hash: string): void {
    const { settings } = this.deps.stores;
    settings.set(SETTING_TRUST, { ...(settings.get<Record<string, string>>(SETTING_TRUST) ?? {}), [path]: hash });
  }

  untrust(path: string): void {
    const { settings } = this.deps.stores;
    const { [path]: _gone, ...rest } = settings.get<Record<string, string>>(SETTING_TRUST) ?? {};
    settings.set(SETTING_TRUST, rest);
  }

  setEnabled(hookId: string, enabled: boolean): void {
    const { settings } = this.deps.stores;
    const disabled = new Set(settings.get<string[]>(SETTING_DISABLED) ?? []);
    if (enabled) disabled.delete(hookId);
    else disabled.add(hookId);
    settings.set(SETTING_DISABLED, [...disabled]);
  }

  setUseClaudeUserSettings(use: boolean): void {
    this.deps.stores.settings.set(SETTING_CLAUDE_USER, use);
  }

  get useClaudeUserSettings(): boolean {
    return this.deps.stores.settings.get<boolean>(SETTING_CLAUDE_USER) === true;
  }

  /** Runs the hooks an event matches for a session; none (and no process) when nothing matches. */
  async fire(request: HookEventRequest): Promise<HookFiring> {
    const hooks = this.matching(request);
    if (hooks.length === 0) return NO_HOOKS;
    const input = this.eventInput(request);
    const runs = await Promise.all(hooks.map((hook) => this.runOne(hook, input, request)));
    const firing = combine(runs);
    const { tool } = request;
    if (tool === undefined || firing.updatedInput === null) return firing;
    // A replacement input comes in Claude Code's shape: back to Cairn's, fields it left out kept.
    const workspace = this.deps.stores.sessions.get(request.sessionId)?.workspacePath ?? null;
    return { ...firing, updatedInput: cairnToolInput(tool.name, firing.updatedInput, tool.input, workspace) };
  }

  /** Runs one hook with a sample event of its kind (Settings → Test): nothing is recorded or decided. */
  async test(scope: { sessionId?: string; workspacePath?: string }, hookId: string): Promise<HookRunReport | null> {
    const found =
      scope.sessionId !== undefined ? this.hooksOf(scope.sessionId) : this.hooksIn(scope.workspacePath ?? null);
    const hook = found.hooks.find((candidate) => candidate.id === hookId);
    if (hook === undefined) return null;
    const request: HookEventRequest = {
      event: hook.event,
      sessionId: scope.sessionId ?? 'sample-session',
      ...(scope.workspacePath === undefined ? {} : { workspace: scope.workspacePath }),
      ...(TOOL_EVENTS.has(hook.event) ? { tool: { name: 'run_shell', input: { command: 'echo sample' } } } : {}),
      fields: { prompt: 'A sample prompt', message: 'A sample notification', stop_hook_active: false },
    };
    return (await this.runOne(hook, this.eventInput(request), request)).report;
  }

  private matching(request: HookEventRequest): ResolvedHook[] {
    const all = this.hooksOf(request.sessionId).hooks.filter(
      (hook) => hook.event === request.event && hook.enabled && hook.trusted,
    );
    const { tool } = request;
    const names =
      tool !== undefined
        ? [claudeToolName(tool.name, tool.isMcp), tool.name]
        : request.source !== undefined
          ? [request.source]
          : null;
    const matched = all.filter((hook) => names === null || matcherMatches(hook.matcher, names));
    // The same command attached twice (a global and a workspace file) runs once, as in Claude Code.
    const seen = new Set<string>();
    return matched.filter((hook) => !seen.has(hook.command) && seen.add(hook.command) !== undefined);
  }

  /** The event's JSON, in Claude Code's field names, plus `cairn_*` fields Cairn adds. */
  private eventInput(request: HookEventRequest): Record<string, unknown> {
    const session = this.deps.stores.sessions.get(request.sessionId);
    const cwd = session?.workspacePath ?? request.workspace ?? this.deps.homeDir;
    const { tool } = request;
    return {
      session_id: request.sessionId,
      transcript_path: this.writeTranscriptCopy(request.sessionId),
      cwd,
      permission_mode: CLAUDE_MODES[session?.permissionMode ?? 'ask'],
      hook_event_name: request.event,
      ...(tool === undefined
        ? {}
        : {
            tool_name: claudeToolName(tool.name, tool.isMcp),
            tool_input: claudeToolInput(tool.name, tool.input, session?.workspacePath ?? null),
            ...(tool.toolCallId === undefined ? {} : { tool_use_id: tool.toolCallId }),
            ...(tool.response === undefined ? {} : { tool_response: tool.response }),
            cairn_tool_name: tool.name,
          }),
      ...(request.source === undefined
        ? {}
        : { [request.event === 'PreCompact' ? 'trigger' : 'source']: request.source }),
      ...request.fields,
    };
  }

  private async runOne(
    hook: ResolvedHook,
    input: Record<string, unknown>,
    request: HookEventRequest,
  ): Promise<{ report: HookRunReport; verdict: HookVerdict }> {
    const cwd = typeof input.cwd === 'string' ? input.cwd : this.deps.homeDir;
    const result = await runHookProcess({
      command: hook.command,
      input: JSON.stringify(input),
      cwd,
      env: {
        CLAUDE_PROJECT_DIR: cwd,
        CAIRN_PROJECT_DIR: cwd,
        CAIRN_SESSION_ID: request.sessionId,
        CAIRN_HOOK_EVENT: request.event,
      },
      timeoutMs: hook.timeoutSeconds * 1000,
      marker: `${this.marker}.${++this.runs}`,
      ...(request.signal === undefined ? {} : { signal: request.signal }),
    });
    const verdict = hookVerdict(hook.event, result, hook.timeoutSeconds);
    const outcome = verdict.error !== null ? 'error' : verdict.block !== null ? 'blocked' : 'ok';
    // The log names the hook and how it ended, never its input or output (they may hold secrets).
    if (outcome === 'error')
      this.deps.logger.warn('A hook failed', { event: hook.event, source: hook.source.path, error: verdict.error });
    const report: HookRunReport = {
      hookId: hook.id,
      event: hook.event,
      command: hook.command,
      matcher: hook.matcher,
      source: hook.source.path,
      exitCode: result.exitCode,
      durationMs: result.durationMs,
      outcome,
      message: clip(verdict.block ?? verdict.message),
      error: verdict.error,
      onError: hook.onError,
    };
    return { report, verdict };
  }

  /**
   * A readable copy of the session for `transcript_path`: one JSON object a line (kind, text, data),
   * written when a hook is about to run, under the data directory (private to the person).
   */
  private writeTranscriptCopy(sessionId: string): string {
    const folder = join(this.deps.dataDir, 'hooks', 'transcripts');
    const path = join(folder, `${sessionId}.jsonl`);
    try {
      mkdirSync(folder, { recursive: true, mode: 0o700 });
      const items = this.deps.stores.transcript.page(sessionId, null, 2000);
      const lines = items.map((item) =>
        JSON.stringify({
          type: item.kind,
          turn_id: item.turnId,
          text: item.text,
          ...(item.data === null || item.data.masked === true ? {} : { data: item.data }),
          timestamp: new Date(item.createdAt).toISOString(),
        }),
      );
      writeFileSync(path, lines.join('\n') + (lines.length > 0 ? '\n' : ''), { mode: 0o600 });
    } catch (error) {
      this.deps.logger.warn('Could not write the transcript copy for hooks', { sessionId, error: String(error) });
    }
    return path;
  }
}

function combine(runs: readonly { report: HookRunReport; verdict: HookVerdict }[]): HookFiring {
  let firing: HookFiring = { ...NO_HOOKS, reports: runs.map((run) => run.report) };
  const contexts: string[] = [];
  for (const { report, verdict } of runs) {
    if (verdict.block !== null && firing.block === null)
      firing = { ...firing, block: { reason: verdict.block, report } };
    if (verdict.stop !== null && firing.stop === null) firing = { ...firing, stop: { reason: verdict.stop, report } };
    if (verdict.error !== null && report.onError === 'fail' && firing.stop === null)
      firing = { ...firing, stop: { reason: `the hook "${report.command}" ${verdict.error}`, report } };
    if (verdict.allow) firing = { ...firing, allow: true };
    if (verdict.ask) firing = { ...firing, ask: true };
    if (verdict.updatedInput !== null && firing.updatedInput === null)
      firing = { ...firing, updatedInput: verdict.updatedInput };
    if (verdict.context !== null) contexts.push(verdict.context);
  }
  return { ...firing, context: contexts.length === 0 ? null : contexts.join('\n\n') };
}

function clip(text: string): string {
  return text.length > 4000 ? `${text.slice(0, 4000)}…` : text;
}
