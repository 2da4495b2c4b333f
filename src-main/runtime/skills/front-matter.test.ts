import { describe, expect, it } from 'vitest';
import { readFrontMatter } from './front-matter';

describe('readFrontMatter', () => {
  it('reads the mapping and the body after it', () => {
    const read = readFrontMatter(
      '---\nname: Release notes\nrequired-tools: [read_file, grep]\n---\n# Steps\n1. Read\n',
    );
    expect(read).toEqual({
      kind: 'parsed',
      data: { name: 'Release notes', 'required-tools': ['read_file', 'grep'] },
      body: '# Steps\n1. Read\n',
    });
  });

  it('accepts a byte order mark, CRLF line ends and an empty block', () => {
    expect(readFrontMatter('\uFEFF---\r\nname: x\r\n---\r\nbody')).toEqual({
      kind: 'parsed',
      data: { name: 'x' },
      body: 'body',
    });
    expect(readFrontMatter('---\n---\nbody')).toEqual({ kind: 'parsed', data: {}, body: 'body' });
  });

  it('says when there is no front matter', () => {
    expect(readFrontMatter('# Just Markdown\n---\n')).toEqual({ kind: 'none', body: '# Just Markdown\n---\n' });
  });

  it('explains an unclosed block, broken YAML and a value that is not a mapping', () => {
    expect(readFrontMatter('---\nname: x\n')).toMatchObject({
      kind: 'invalid',
      reason: expect.stringContaining('not closed'),
    });
    expect(readFrontMatter('---\nname: [unclosed\n---\n')).toMatchObject({
      kind: 'invalid',
      reason: expect.stringContaining('not valid YAML'),
    });
    expect(readFrontMatter('---\n- a\n- b\n---\n')).toMatchObject({
      kind: 'invalid',
      reason: expect.stringContaining('"key: value"'),
    });
  });

  it('refuses an alias bomb instead of expanding it', () => {
    const bomb = [
      '---',
      'a: &a [x, x, x, x, x, x, x, x, x, x]',
      'b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]',
      'c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]',
      'd: [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]',
      '---',
      '',
    ].join('\n');
    expect(readFrontMatter(bomb)).toMatchObject({ kind: 'invalid' });
  });
});
