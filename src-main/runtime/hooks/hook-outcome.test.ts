import { describe, expect, it } from 'vitest';
import { hookVerdict } from './hook-outcome';
import type { HookProcessResult } from './hook-process';

const ran = (exitCode: number | null, stdout = '', stderr = '', failure: HookProcessResult['failure'] = null) => ({
  exitCode,
  stdout,
  stderr,
  failure,
  durationMs: 1,
});

describe('hookVerdict', () => {
  it('exit 2 blocks with stderr as the reason; another exit code is a named error that blocks nothing', () => {
    expect(hookVerdict('PreToolUse', ran(2, '', 'no rm -rf\n'), 60)).toMatchObject({ block: 'no rm -rf', error: null });
    expect(hookVerdict('PreToolUse', ran(1, '', 'oops'), 60)).toMatchObject({
      block: null,
      error: 'exited with code 1',
      message: 'oops',
    });
    expect(hookVerdict('Stop', ran(null, '', '', 'timeout'), 5)).toMatchObject({
      block: null,
      error: 'timed out after 5 s',
    });
  });

  it('plain stdout is context for UserPromptSubmit and SessionStart only', () => {
    expect(hookVerdict('UserPromptSubmit', ran(0, 'freeze until Friday\n'), 60).context).toBe('freeze until Friday');
    expect(hookVerdict('SessionStart', ran(0, 'branch main'), 60).context).toBe('branch main');
    expect(hookVerdict('PostToolUse', ran(0, 'formatted'), 60).context).toBeNull();
  });

  it("reads Claude Code's JSON output: decisions, permissionDecision, PermissionRequest, continue, additionalContext", () => {
    const json = (value: unknown) => ran(0, JSON.stringify(value));
    expect(hookVerdict('Stop', json({ decision: 'block', reason: 'run the tests' }), 60).block).toBe('run the tests');
    const deny = {
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'deny',
        permissionDecisionReason: 'protected',
      },
    };
    expect(hookVerdict('PreToolUse', json(deny), 60)).toMatchObject({ block: 'protected' });
    const allow = { hookSpecificOutput: { permissionDecision: 'allow', updatedInput: { command: 'ls' } } };
    expect(hookVerdict('PreToolUse', json(allow), 60)).toMatchObject({ allow: true, updatedInput: { command: 'ls' } });
    const permission = { hookSpecificOutput: { decision: { behavior: 'deny', message: 'not on Fridays' } } };
    expect(hookVerdict('PermissionRequest', json(permission), 60).block).toBe('not on Fridays');
    expect(hookVerdict('PostToolUse', json({ continue: false, stopReason: 'enough' }), 60).stop).toBe('enough');
    const context = { hookSpecificOutput: { additionalContext: 'the linter said 2 warnings' } };
    expect(hookVerdict('PostToolUse', json(context), 60).context).toBe('the linter said 2 warnings');
  });
});
