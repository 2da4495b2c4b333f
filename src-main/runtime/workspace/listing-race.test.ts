import { renameSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { outcome, tempWorkspace, toolContext } from '../../testing/workspace-fixture';
import { createGlobTool } from './glob-tool';
import { createListFilesTool } from './list-files-tool';

/**
 * The rename race: a folder is checked, then swapped for a link to a folder outside the workspace
 * before it is read. The hook puts the swap exactly in that window, so the race is won every time.
 */
describe('listing while a folder is swapped for a link to the outside', () => {
  let ws: ReturnType<typeof tempWorkspace>;
  beforeEach(() => {
    ws = tempWorkspace();
    ws.write('notes/inside.txt', 'in');
    ws.write('notes/deeper/also-inside.txt', 'in');
    ws.write('../outside/secret.txt', 'out');
    ws.write('../outside/nested/private.txt', 'out');
  });
  afterEach(() => ws.cleanup());

  const swap = () => {
    renameSync(path.join(ws.root, 'notes'), path.join(ws.root, 'notes-before'));
    symlinkSync(ws.outside, path.join(ws.root, 'notes'));
  };

  it('list_files never returns a name from outside', async () => {
    const tool = createListFilesTool({ root: ws.root, beforeWalk: swap });
    const { isError, output } = await outcome(await tool.execute({ path: 'notes', depth: 3 }, toolContext()));
    expect(isError).toBe(false);
    expect(String(output.entries)).not.toMatch(/secret|private|nested/);
    expect(output.count).toBe(0);
    expect(output.note).toContain(
      'were left out: their folder was moved or replaced by a link while it was being listed',
    );
  });

  it('glob never returns a name from outside', async () => {
    const tool = createGlobTool({ root: ws.root, beforeWalk: swap });
    const { isError, output } = await outcome(
      await tool.execute({ pattern: '**/*.txt', path: 'notes' }, toolContext()),
    );
    expect(isError).toBe(false);
    expect(String(output.files)).not.toMatch(/secret|private/);
    expect(output.count).toBe(0);
  });

  it('without a swap, both list what is inside', async () => {
    const listed = await outcome(
      await createListFilesTool({ root: ws.root }).execute({ path: 'notes', depth: 3 }, toolContext()),
    );
    expect(listed.output.entries).toBe('notes/deeper/\nnotes/deeper/also-inside.txt\nnotes/inside.txt');
    const globbed = await outcome(
      await createGlobTool({ root: ws.root }).execute({ pattern: '**/*.txt', path: 'notes' }, toolContext()),
    );
    expect(globbed.output.files).toBe('notes/deeper/also-inside.txt\nnotes/inside.txt');
  });
});
