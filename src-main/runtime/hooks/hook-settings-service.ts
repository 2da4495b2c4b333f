import { join } from 'node:path';
import type { HookList, HookTestResult } from '../../../src-shared/hook-model';
import { fail, ok, type Outcome } from '../../../src-shared/errors';
import type { Stores } from '../../storage/stores';
import type { HookService } from './hook-service';

/** For a session, or for a folder a session is about to use. */
export interface HookScope {
  readonly sessionId?: string | undefined;
  readonly workspacePath?: string | undefined;
}

/** Settings → Hooks: what is in effect where, trust, enable, opt in to Claude Code's user settings, Test. */
export class HookSettingsService {
  constructor(
    private readonly deps: { readonly stores: Stores; readonly hooks: HookService; readonly dataDir: string },
  ) {}

  list(scope: HookScope): Outcome<HookList, 'not_found'> {
    const { hooks } = this.deps;
    if (scope.sessionId !== undefined && this.deps.stores.sessions.get(scope.sessionId) === null)
      return fail('not_found', 'That session does not exist.');
    const found =
      scope.sessionId !== undefined ? hooks.hooksOf(scope.sessionId) : hooks.hooksIn(scope.workspacePath ?? null);
    return ok({
      hooks: found.hooks.map((hook) => ({
        id: hook.id,
        event: hook.event,
        matcher: hook.matcher,
        command: hook.command,
        timeoutSeconds: hook.timeoutSeconds,
        onError: hook.onError,
        sourceKind: hook.source.kind,
        sourcePath: hook.source.path,
        enabled: hook.enabled,
        trusted: hook.trusted,
      })),
      errors: found.errors,
      untrusted: found.untrusted,
      skipped: found.skipped,
      globalFile: join(this.deps.dataDir, 'hooks.json'),
      useClaudeUserSettings: hooks.useClaudeUserSettings,
    });
  }

  trust(
    scope: HookScope,
    path: string,
    hash: string,
    trusted: boolean,
  ): Outcome<HookList, 'not_found' | 'revision_conflict'> {
    const listed = this.list(scope);
    if (!listed.ok) return listed;
    if (!trusted) {
      this.deps.hooks.untrust(path);
      return this.list(scope);
    }
    const waiting = listed.result.untrusted.find((file) => file.path === path);
    if (waiting === undefined) {
      const known = listed.result.hooks.some((hook) => hook.sourcePath === path);
      if (!known) return fail('not_found', `No hooks in ${path} apply here.`);
      return this.list(scope);
    }
    if (waiting.hash !== hash)
      return fail('revision_conflict', `The hooks in ${path} changed since they were shown. Look at them again.`);
    this.deps.hooks.trust(path, hash);
    return this.list(scope);
  }

  setEnabled(scope: HookScope, hookId: string, enabled: boolean): Outcome<HookList, 'not_found'> {
    const listed = this.list(scope);
    if (!listed.ok) return listed;
    if (!listed.result.hooks.some((hook) => hook.id === hookId)) return fail('not_found', 'That hook is not there.');
    this.deps.hooks.setEnabled(hookId, enabled);
    return this.list(scope);
  }

  configure(scope: HookScope, useClaudeUserSettings: boolean): Outcome<HookList, 'not_found'> {
    this.deps.hooks.setUseClaudeUserSettings(useClaudeUserSettings);
    return this.list(scope);
  }

  async test(scope: HookScope, hookId: string): Promise<Outcome<HookTestResult, 'not_found'>> {
    const listed = this.list(scope);
    if (!listed.ok) return listed;
    const report = await this.deps.hooks.test(scope, hookId);
    if (report === null) return fail('not_found', 'That hook is not there.');
    const { exitCode, outcome, message, error, durationMs } = report;
    return ok({ exitCode, outcome, message, error, durationMs });
  }
}
