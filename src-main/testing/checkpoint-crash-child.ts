/**
 * A host process that is SIGKILLed in the middle of a file checkpoint, for the crash tests:
 * `commit_written` dies after the checkpoint's commit object is written and before its ref;
 * `turn_wrote` dies after the turn's first write (the checkpoint before it is whole, the turn not ended).
 * Usage: node --import tsx checkpoint-crash-child.ts DATA_DIR WORKSPACE POINT
 */
import { createHost } from '../host/create-host';
import { silentLogger } from '../runtime/ports/ports';

const [dataDir = '', workspace = '', point = ''] = process.argv.slice(2);
const die = () => process.kill(process.pid, 'SIGKILL');

const host = await createHost({
  dataDir,
  logger: silentLogger,
  modelTitles: false,
  sandbox: 'off',
  checkpoints: point === 'commit_written' ? { afterCommitObject: die } : {},
});
host.subscribe((event) => {
  if (point === 'turn_wrote' && event.kind === 'transcript.appended' && event.item.kind === 'tool_result') die();
});
const created = await host.invoke('session.create', { workspacePath: workspace, permissionMode: 'full' });
if (!created.ok) throw new Error(created.error.message);
const text = `/tools ${JSON.stringify([
  ['write_file', { path: 'a.txt', content: 'A\n' }],
  ['write_file', { path: 'b.txt', content: 'B\n' }],
])}`;
await host.invoke('turn.start', { sessionId: created.result.session.sessionId, turnId: 't1', text });
// The process ends by SIGKILL; if it does not within a minute, it says so.
setTimeout(() => {
  console.error('not killed');
  process.exit(3);
}, 60_000);
