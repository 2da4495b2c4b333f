import { describe, expect, it } from 'vitest';
import { item } from '../state/reducers/record-fixtures';
import {
  formatDuration,
  formatRunningTime,
  toolCallStatus,
  toolErrorText,
  toolTarget,
  valueSections,
} from './tool-call';

describe('tool call lines', () => {
  it('names what each workspace tool works on', () => {
    expect(toolTarget('read_file', { path: 'src/app.ts', startLine: 3 })).toBe('src/app.ts');
    expect(toolTarget('edit_file', { path: 'notes.md', search: 'a', replace: 'b' })).toBe('notes.md');
    expect(toolTarget('list_files', {})).toBe('.');
    expect(toolTarget('glob', { pattern: '**/*.ts', path: 'src' })).toBe('**/*.ts in src');
    expect(toolTarget('grep', { pattern: 'TODO' })).toBe('TODO');
    expect(toolTarget('run_shell', { command: 'npm test\nnpm run lint' })).toBe('npm test …');
    expect(toolTarget('current_time', {})).toBeNull();
    expect(toolTarget('run_shell', 'not an object')).toBeNull();
  });

  it('reads the status from the result and the turn', () => {
    const result = (output: unknown, isError: boolean) =>
      item({
        itemId: 'r',
        position: 2,
        kind: 'tool_result',
        data: { toolCallId: 'c', toolName: 'run_shell', output, isError },
      });
    expect(toolCallStatus(undefined, true)).toBe('running');
    expect(toolCallStatus(undefined, false)).toBe('stopped');
    expect(toolCallStatus(result({ exitCode: 0 }, false), false)).toBe('done');
    expect(toolCallStatus(result('No such file', true), false)).toBe('failed');
    expect(toolCallStatus(result({ action: 'deny', reason: 'no' }, true), false)).toBe('denied');
    expect(
      toolErrorText(result({ error: 'There is no tool named "write_file" here.\nAvailable: read_file' }, true)),
    ).toBe('There is no tool named "write_file" here. …');
    expect(toolErrorText(result('No such file', true))).toBe('No such file');
    expect(toolErrorText(result({ exitCode: 0 }, false))).toBeNull();
  });

  it('says how long something took', () => {
    expect(formatDuration(-5)).toBe('0 ms');
    expect(formatDuration(120)).toBe('120 ms');
    expect(formatDuration(4280)).toBe('4.2 s');
    expect(formatDuration(42_000)).toBe('42 s');
    expect(formatDuration(185_000)).toBe('3 min 5 s');
    expect(formatDuration(3_720_000)).toBe('1 h 2 min');
    expect(formatRunningTime(26)).toBe('0 s');
    expect(formatRunningTime(12_900)).toBe('12 s');
    expect(formatRunningTime(61_000)).toBe('1 min 1 s');
  });

  it('lays out a result: long text as blocks, short values as facts', () => {
    const sections = valueSections(
      { path: 'a.txt', content: '1\tone\n2\ttwo', totalLines: 2, truncated: false, extra: { a: 1 } },
      'Result',
    );
    expect(sections.facts).toEqual([
      ['path', 'a.txt'],
      ['totalLines', '2'],
      ['truncated', 'false'],
      ['extra', '{"a":1}'],
    ]);
    expect(sections.blocks).toEqual([{ label: 'content', text: '1\tone\n2\ttwo' }]);
    expect(valueSections('There is no tool named "x"', 'Result').blocks).toEqual([
      { label: 'Result', text: 'There is no tool named "x"' },
    ]);
    expect(valueSections(undefined, 'Result')).toEqual({ facts: [], blocks: [] });
  });
});
