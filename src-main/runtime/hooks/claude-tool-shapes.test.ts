import { describe, expect, it } from 'vitest';
import { claudeToolInput, claudeToolName, matcherMatches } from './claude-tool-shapes';

describe("Claude Code's tool names and shapes", () => {
  it('names Cairn tools as Claude Code does, and MCP tools mcp__<server>__<tool>', () => {
    expect(
      ['run_shell', 'write_file', 'edit_file', 'read_file', 'glob', 'grep'].map((name) => claudeToolName(name)),
    ).toEqual(['Bash', 'Write', 'Edit', 'Read', 'Glob', 'Grep']);
    expect(claudeToolName('github__create_issue', true)).toBe('mcp__github__create_issue');
    expect(claudeToolName('remember')).toBe('remember');
  });

  it('matches as Claude Code: empty or * matches all, else a whole-name regular expression on either name', () => {
    expect(matcherMatches('', ['Bash', 'run_shell'])).toBe(true);
    expect(matcherMatches('*', ['Read', 'read_file'])).toBe(true);
    expect(matcherMatches('Edit|Write', ['Write', 'write_file'])).toBe(true);
    expect(matcherMatches('Edit|Write', ['Bash', 'run_shell'])).toBe(false);
    expect(matcherMatches('run_shell', ['Bash', 'run_shell'])).toBe(true);
    expect(matcherMatches('Bas', ['Bash', 'run_shell'])).toBe(false);
    expect(matcherMatches('mcp__github__.*', ['mcp__github__create_issue', 'github__create_issue'])).toBe(true);
  });

  it("gives tool_input in Claude Code's shape, with absolute file paths", () => {
    expect(claudeToolInput('write_file', { path: 'src/a.ts', content: 'x' }, '/ws')).toEqual({
      file_path: '/ws/src/a.ts',
      content: 'x',
    });
    expect(claudeToolInput('edit_file', { path: 'a', search: 'old', replace: 'new' }, '/ws')).toEqual({
      file_path: '/ws/a',
      old_string: 'old',
      new_string: 'new',
    });
    expect(claudeToolInput('run_shell', { command: 'ls', timeoutSeconds: 2 }, '/ws')).toEqual({
      command: 'ls',
      timeout: 2000,
    });
    expect(claudeToolInput('read_file', { path: 'a', startLine: 3, endLine: 7 }, '/ws')).toEqual({
      file_path: '/ws/a',
      offset: 3,
      limit: 5,
    });
  });
});
