import { describe, expect, it } from 'vitest';
import { branchTitle, childSessionTitle, skillTitleHint, titleFromMessage } from './session-title';

describe('titleFromMessage', () => {
  it('takes the first non-empty line with whitespace collapsed', () => {
    expect(titleFromMessage('\n\n   Fix   the   login bug \nmore detail')).toBe('Fix the login bug');
  });
  it('cuts a long line at a word and marks the cut', () => {
    const title = titleFromMessage(
      'Please investigate why the nightly export job times out on large customer accounts',
    );
    expect(title).toBe('Please investigate why the nightly export job times out on…');
    expect((title ?? '').length).toBeLessThanOrEqual(61);
  });
  it('returns null for blank text', () => {
    expect(titleFromMessage(' \n\t ')).toBeNull();
  });
  it('never takes a directive as typed', () => {
    expect(titleFromMessage('/tool read_file {"path":"README.md"}')).toBe('Tool call: read_file');
    expect(titleFromMessage('/stream 30 40')).toBe('Offline demo: stream');
    expect(titleFromMessage('/stream 400 50 in the quarterly report')).toBe('in the quarterly report');
    expect(titleFromMessage('/ask')).toBe('Offline demo: ask');
    expect(titleFromMessage('/goal Ship the docs budget 5000')).toBe('Ship the docs budget 5000');
    expect(titleFromMessage('a/b testing plan')).toBe('a/b testing plan');
    expect(titleFromMessage('/fail rate_limited Slow down')).toBe('Offline demo: fail (rate_limited)');
    expect(titleFromMessage('/fail')).toBe('Offline demo: fail');
  });
  it('never takes a spawn directive’s agent, quoted task or flags as the title', () => {
    expect(titleFromMessage('/spawn worker "/hold" wait')).toBe('Offline demo: worker subagents');
    expect(titleFromMessage('/spawn-many 2 explore "Survey the docs"')).toBe('Offline demo: explore subagents');
    expect(titleFromMessage('/stream 3 10 "quoted" /hold')).toBe('Offline demo: stream');
  });
});

describe('skillTitleHint and branchTitle', () => {
  it('a skill turn is titled by the skill, then the words added', () => {
    expect(titleFromMessage(skillTitleHint('Release notes', 'since v1.2'))).toBe('Release notes: since v1.2');
    expect(titleFromMessage(skillTitleHint('Release notes', '  '))).toBe('Release notes');
  });
  it('a branch of a branch keeps one suffix, the latest', () => {
    expect(branchTitle('Plan the garden', 'edit')).toBe('Plan the garden (branch)');
    expect(branchTitle('Plan the garden (branch)', 'regenerate')).toBe('Plan the garden (branch)');
    expect(branchTitle('Plan the garden (rewound)', 'rewind')).toBe('Plan the garden (rewound)');
    expect(branchTitle('Plan the garden (branch) (rewound) (branch)', 'rewind')).toBe('Plan the garden (rewound)');
    expect(branchTitle('Notes (draft)', 'edit')).toBe('Notes (draft) (branch)');
    expect(branchTitle('x'.repeat(300), 'edit')).toBe(`${'x'.repeat(190)}… (branch)`);
  });
});

describe('childSessionTitle', () => {
  it('names a child by its agent and a short task, never a directive as typed', () => {
    expect(childSessionTitle('Worker', '/hold', [])).toBe('Worker: hold');
    expect(childSessionTitle('Worker', '/stream 3 10 the weekly report', [])).toBe('Worker: the weekly report');
    expect(childSessionTitle('Explore', 'Survey the docs folder\nand list what is stale', [])).toBe(
      'Explore: Survey the docs folder',
    );
    expect(childSessionTitle('Explore', 'Read every markdown file in the repository and summarise each', [])).toBe(
      'Explore: Read every markdown file in the…',
    );
  });
  it('adds an ordinal when a sibling already has the same title', () => {
    expect(childSessionTitle('Worker', '/hold', ['Worker: hold'])).toBe('Worker: hold (2)');
    expect(childSessionTitle('Worker', '/hold', ['Worker: hold', 'Worker: hold (2)'])).toBe('Worker: hold (3)');
  });
});
