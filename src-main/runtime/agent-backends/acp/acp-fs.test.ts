import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readTextFile } from './acp-fs';

describe('an agent’s fs/read_text_file', () => {
  const workspace = mkdtempSync(join(tmpdir(), 'cairn-acp-fs-'));
  writeFileSync(join(workspace, 'heron.txt'), 'one\ntwo\nthree');
  const session = { workspace, permissionMode: 'ask', writeApproved: false } as const;
  const read = (path: string, more: { line?: number; limit?: number } = {}) =>
    readTextFile(session, { sessionId: 's', path, ...more });

  it('reads a file of the workspace, or the lines asked for', async () => {
    await expect(read(join(workspace, 'heron.txt'))).resolves.toEqual({ content: 'one\ntwo\nthree' });
    await expect(read(join(workspace, 'heron.txt'), { line: 2, limit: 1 })).resolves.toEqual({ content: 'two' });
  });

  it('a missing file is ACP’s "Resource not found", which agents take as a file to create', async () => {
    await expect(read(join(workspace, 'new.txt'))).rejects.toMatchObject({ code: -32002 });
  });

  it('a path outside the workspace is refused as invalid, saying why', async () => {
    await expect(read('/etc/hostname')).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining('outside'),
    });
  });
});
