import { describe, expect, it } from 'vitest';
import { parseHookFile } from './hook-settings';

describe('parseHookFile', () => {
  it("reads Claude Code's format: event → matcher groups → command hooks, with defaults", () => {
    const text = JSON.stringify({
      permissions: { allow: [] },
      hooks: {
        PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'guard.sh', timeout: 5 }] }],
        Stop: [{ hooks: [{ type: 'command', command: 'notify.sh', onError: 'fail' }] }],
      },
    });
    expect(parseHookFile('/x/settings.json', text)).toEqual({
      ok: true,
      skipped: [],
      hooks: [
        {
          event: 'PreToolUse',
          matcher: 'Bash',
          command: 'guard.sh',
          timeoutSeconds: 5,
          onError: 'continue',
          place: 'PreToolUse[0].hooks[0]',
        },
        {
          event: 'Stop',
          matcher: '',
          command: 'notify.sh',
          timeoutSeconds: 60,
          onError: 'fail',
          place: 'Stop[0].hooks[0]',
        },
      ],
    });
  });

  it('names the file and the line of a JSON syntax error', () => {
    const parsed = parseHookFile('/x/settings.json', '{\n  "hooks": {\n    "Stop": [ , ]\n  }\n}');
    expect(parsed).toEqual({
      ok: false,
      error: expect.stringMatching(/^\/x\/settings\.json: not valid JSON at line 3, column \d+: /),
    });
  });

  it('finds the line of errors Node does not place: a trailing comma, a missing comma, an unclosed string', () => {
    const at = (text: string) => parseHookFile('/s.json', text);
    expect(at('{\n  "hooks": {\n    "Stop": []\n  },\n}')).toMatchObject({
      ok: false,
      error: expect.stringContaining('line 5, column 1'),
    });
    expect(at('{\n  "a": 1\n  "b": 2\n}')).toMatchObject({
      ok: false,
      error: expect.stringContaining('line 3, column 3'),
    });
    expect(at('{\n  "a": "open\n}')).toMatchObject({ ok: false, error: expect.stringContaining('line 2') });
  });

  it('names the file, the line and the field of a hook that does not have the format', () => {
    const text =
      '{\n  "hooks": {\n    "Stop": [\n      { "hooks": [ { "type": "command", "command": "" } ] }\n    ]\n  }\n}';
    const parsed = parseHookFile('/x/settings.json', text);
    expect(parsed).toEqual({
      ok: false,
      error: expect.stringMatching(/^\/x\/settings\.json: .*hooks\.Stop\[0\]\.hooks\[0\]\.command: /),
    });
    const badMatcher = parseHookFile('/x/s.json', '{\n"hooks": {"PreToolUse": [\n{"matcher": "Bash(", "hooks": []}]}}');
    expect(badMatcher).toEqual({
      ok: false,
      error: expect.stringMatching(
        /^\/x\/s\.json: line 3: hooks\.PreToolUse\[0\]\.matcher: not a valid regular expression/,
      ),
    });
    expect(parseHookFile('/x/s.json', '[1]')).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^\/x\/s\.json: /),
    });
  });

  it('skips, and says so, what Cairn does not run: other events, other hook types', () => {
    const text = JSON.stringify({
      hooks: {
        PostToolUseFailure: [{ hooks: [{ type: 'command', command: 'x' }] }],
        Stop: [{ hooks: [{ type: 'prompt', prompt: 'Is it done?' }] }],
      },
    });
    expect(parseHookFile('/x/s.json', text)).toEqual({
      ok: true,
      hooks: [],
      skipped: [
        'PostToolUseFailure: an event Cairn does not fire',
        'Stop[0].hooks[0]: hooks of type "prompt" are not run by Cairn',
      ],
    });
  });
});
