import { describe, expect, it } from 'vitest';
import { formatCommandLine, formatEnvLines, parseCommandLine, parseEnvLines } from './acp-command';

describe('ACP agent command line', () => {
  it('splits a command line on spaces, keeping quoted words and escapes together, and formats it back', () => {
    expect(parseCommandLine(`/opt/bin/agent --acp 'unclosed`)).toEqual({
      ok: false,
      problem: 'Close the single quote.',
    });
    const good = parseCommandLine(`/opt/bin/agent --acp "two words" a\\ b ""`);
    expect(good).toEqual({ ok: true, value: { command: '/opt/bin/agent', args: ['--acp', 'two words', 'a b', ''] } });
    if (!good.ok) return;
    expect(parseCommandLine(formatCommandLine(good.value.command, good.value.args))).toEqual(good);
    expect(parseCommandLine('   ')).toMatchObject({ ok: false });
  });

  it('reads NAME=value lines, skipping blanks and comments; a bad line is named', () => {
    expect(parseEnvLines('A=1\n\n# note\nB_2 = x=y\n')).toEqual({ ok: true, value: { A: '1', B_2: ' x=y' } });
    expect(parseEnvLines('A=1\n2B=3')).toEqual({
      ok: false,
      problem: 'Line 2: write NAME=value (letters, digits and _ in the name).',
    });
    expect(parseEnvLines(formatEnvLines({ KEY: 'a b', OTHER: '' }))).toEqual({
      ok: true,
      value: { KEY: 'a b', OTHER: '' },
    });
  });
});
