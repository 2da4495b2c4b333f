import { describe, expect, it } from 'vitest';
import { METHODS } from './codex-protocol';
import { EventMapper } from './event-mapper';
import { bridgeRequest } from './interaction-bridge';

/** A Codex turn that announced one file change, as app-server sends it, and the approval request for it. */
function approvalFor(changes: readonly { path: string; diff: string; kind: Record<string, unknown> }[]) {
  const mapper = new EventMapper('turn-1', 'gpt-5.5');
  mapper.map('item/started', {
    turnId: 'turn-1',
    item: { type: 'fileChange', id: 'item-1', status: 'inProgress', changes },
  });
  return bridgeRequest(METHODS.fileChangeApproval, { turnId: 'turn-1', itemId: 'item-1' }, mapper, 7);
}

describe('a Codex file change, as an approval', () => {
  it('reads "Create" for a new file and shows its text as added lines, as write_file does', () => {
    const bridged = approvalFor([{ path: 'hello.txt', diff: 'hello\nworld\n', kind: { type: 'add' } }]);
    expect(bridged?.request).toMatchObject({
      kind: 'permission',
      summary: 'Create hello.txt',
      preview: { kind: 'diff', path: 'hello.txt' },
    });
    const diff =
      bridged?.request.kind === 'permission' && bridged.request.preview?.kind === 'diff'
        ? bridged.request.preview.diff
        : '';
    expect(diff).toContain('--- /dev/null\n+++ b/hello.txt\n@@ -0,0 +1,2 @@\n+hello\n+world\n');
    expect(bridged?.input.diff).toBe(diff);
  });

  it('reads "Edit" for an update and keeps Codex’s own diff', () => {
    const update = '@@ -1 +1 @@\n-old line\n+new line\n';
    const bridged = approvalFor([
      { path: 'hello.txt', diff: update, kind: { type: 'update', move_path: null } },
      { path: 'more.txt', diff: 'x\n', kind: { type: 'add' } },
    ]);
    expect(bridged?.request).toMatchObject({ summary: 'Edit hello.txt (and 1 more file)' });
    expect(String(bridged?.input.diff)).toMatch(/^@@ -1 \+1 @@\n-old line\n\+new line\n\n/);
  });

  it('reads "Delete" for a removed file, its text as removed lines', () => {
    const bridged = approvalFor([{ path: 'old.txt', diff: 'gone\n', kind: { type: 'delete' } }]);
    expect(bridged?.request).toMatchObject({ summary: 'Delete old.txt' });
    expect(String(bridged?.input.diff)).toContain('@@ -1,1 +0,0 @@\n-gone\n');
  });
});
