import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { ShellRunRecord } from '../../src-shared/shell-run-model';
import type { TranscriptItem } from '../../src-shared/model';
import { interaction, item, turn } from '../state/reducers/record-fixtures';
import { applyShellRecord, appendShellOutput, EMPTY_SHELL } from '../state/reducers/shell-reducer';
import { applySnapshotPage } from '../state/reducers/transcript-reducer';
import { StoreProvider } from '../state/store-context';
import { setupStore } from '../state/test-store';
import { renderWhenLoaded } from './test-render';
import { ApprovedToolCall, ToolItem } from './ToolItem';

const call = (toolName: string, input: unknown, extra: Record<string, unknown> = {}) =>
  item({
    itemId: 'c1',
    position: 1,
    kind: 'tool_call',
    text: toolName,
    createdAt: 1000,
    data: { toolCallId: 'call-1', toolName, input, ...extra },
  });
const result = (toolName: string, output: unknown, isError = false) =>
  item({
    itemId: 'r1',
    position: 2,
    kind: 'tool_result',
    text: toolName,
    createdAt: 1250,
    data: { toolCallId: 'call-1', toolName, output, isError },
  });

const shellRun: ShellRunRecord = {
  shellRunId: 'sh1',
  sessionId: 's1',
  turnId: 't1',
  runId: 'r1',
  toolCallId: 'call-1',
  command: 'npm test',
  cwd: '/work/project',
  status: 'running',
  exitCode: null,
  signal: null,
  pid: 7,
  startedAt: 1000,
  endedAt: null,
  stdoutTail: '',
  stderrTail: '',
  stdoutTruncated: false,
  stderrTruncated: false,
  failureMessage: null,
};

function render(
  items: TranscriptItem[],
  element: (items: TranscriptItem[]) => React.ReactNode,
  setup: (store: ReturnType<typeof setupStore>['store']) => void = () => {},
) {
  const { rendered, disconnect } = storeWith(items, setup);
  const html = renderToStaticMarkup(<StoreProvider store={rendered}>{element(items)}</StoreProvider>);
  disconnect();
  return html;
}

/** As render, once the views it loads on first use (the plan card, a command's panel) have loaded. */
async function renderLoaded(
  items: TranscriptItem[],
  element: (items: TranscriptItem[]) => React.ReactNode,
  setup: (store: ReturnType<typeof setupStore>['store']) => void = () => {},
) {
  const { rendered, disconnect } = storeWith(items, setup);
  const html = await renderWhenLoaded(<StoreProvider store={rendered}>{element(items)}</StoreProvider>);
  disconnect();
  return html;
}

function storeWith(items: TranscriptItem[], setup: (store: ReturnType<typeof setupStore>['store']) => void) {
  const { store, disconnect } = setupStore();
  store.setState({
    transcripts: {
      s1: applySnapshotPage(undefined, 's1', {
        items,
        turns: [turn({ turnId: 't1', status: 'completed' })],
        nextBefore: null,
      }),
    },
  });
  setup(store);
  // Server rendering reads the store's initial state; let it see the state set up here.
  const rendered = { ...store, getInitialState: () => store.getState() };
  return { rendered, disconnect };
}

describe('ToolItem', () => {
  it('shows a call as one line: its name as the message text, its target, and how it went', () => {
    const html = render(
      [call('read_file', { path: 'src/app.ts' }), result('read_file', { path: 'src/app.ts', content: '1\tx' })],
      (items) => <ToolItem item={items[0]!} common={{ 'data-testid': 'message' }} />,
    );
    expect(html).toContain('<span data-testid="message" class="message message-tool">read_file</span>');
    expect(html).toContain('src/app.ts');
    expect(html).toContain('data-status="done"');
    expect(html).toContain('250 ms');
  });

  it('leaves the result to its call’s line, and stands in for a call that is not loaded', () => {
    const both = render([call('read_file', { path: 'a' }), result('read_file', 'No such file', true)], (items) => (
      <ToolItem item={items[1]!} common={{}} />
    ));
    expect(both).toBe('');
    const alone = render([result('read_file', 'No such file', true)], (items) => (
      <ToolItem item={items[0]!} common={{}} />
    ));
    expect(alone).toContain('data-status="failed"');
    expect(alone).toContain('Failed');
  });

  it('shows an ACP plan as a card of its latest entries, and its results nothing of their own', async () => {
    const entries = (first: string, second: string) => ({
      entries: [
        { content: 'Count herons', priority: 'high', status: first },
        { content: 'Write the report', priority: 'medium', status: second },
      ],
    });
    const planCall = item({
      itemId: 'p0',
      position: 1,
      kind: 'tool_call',
      text: 'acp.plan',
      data: {
        toolCallId: 'acp-plan',
        toolName: 'acp.plan',
        input: { title: 'Plan', ...entries('in_progress', 'pending') },
      },
    });
    const planResult = (itemId: string, position: number, output: unknown) =>
      item({
        itemId,
        position,
        kind: 'tool_result',
        text: 'acp.plan',
        data: { toolCallId: 'acp-plan', toolName: 'acp.plan', output, isError: false },
      });
    const items = [
      planCall,
      planResult('p1', 2, entries('in_progress', 'pending')),
      planResult('p2', 3, entries('completed', 'in_progress')),
    ];
    const html = await renderLoaded(items, (loaded) => <ToolItem item={loaded[0]!} common={{}} />);
    expect(html).toContain('data-testid="plan-card"');
    expect(html).toContain('1 of 2 done');
    expect(html).toMatch(
      /data-status="completed" data-priority="high"><span class="plan-entry-status">Done<\/span><span class="plan-entry-content">Count herons/,
    );
    expect(html).toMatch(
      /data-status="in_progress" data-priority="medium"><span class="plan-entry-status">In progress<\/span><span class="plan-entry-content">Write the report/,
    );
    expect(render(items, (loaded) => <ToolItem item={loaded[2]!} common={{}} />)).toBe('');
  });

  it('counts the lines an edit changes', () => {
    const html = render(
      [
        call('edit_file', { path: 'notes.md', search: 'a\nb', replace: 'c' }),
        result('edit_file', { path: 'notes.md', replaced: 1 }),
      ],
      (items) => <ToolItem item={items[0]!} common={{}} />,
    );
    expect(html).toContain('notes.md');
    expect(html).toContain('+1');
    expect(html).toContain('−2');
  });

  it('shows a shell command as a terminal with its output and Stop while it runs', async () => {
    const html = await renderLoaded(
      [call('run_shell', { command: 'npm test' })],
      (items) => <ToolItem item={items[0]!} common={{}} />,
      (store) => {
        let shell = applyShellRecord(EMPTY_SHELL, shellRun);
        shell = appendShellOutput(shell, 's1', 'sh1', 'stdout', 'ok 1\n');
        shell = appendShellOutput(shell, 's1', 'sh1', 'stderr', 'warn\n');
        store.setState({ shell });
      },
    );
    expect(html).toContain('data-testid="shell-run"');
    expect(html).toContain('npm test');
    expect(html).toContain('/work/project');
    expect(html).toContain('<span class="shell-stdout">ok 1\n</span><span class="shell-stderr">warn\n</span>');
    expect(html).toContain('aria-label="Stop command"');
    expect(html).toContain('data-status="running"');
  });

  it('shows an approved call under its approval, and nothing for a denied one', () => {
    const approval = call('edit_file', { path: 'notes.md', search: 'a', replace: 'b' }, { interactionId: 'i1' });
    const permission = {
      kind: 'permission' as const,
      toolName: 'edit_file',
      summary: 'Edit notes.md',
      preview: { kind: 'diff' as const, path: 'notes.md', diff: '' },
    };
    const withAnswer = (decision: 'allow_once' | 'deny') => (store: ReturnType<typeof setupStore>['store']) =>
      store.setState({
        interactions: {
          byId: {
            i1: interaction({
              interactionId: 'i1',
              request: permission,
              status: 'answered',
              answer: decision === 'deny' ? { action: 'deny' } : { action: 'accept', decision },
              updatedAt: 1200,
            }),
          },
          pendingIds: [],
          pendingLoaded: true,
        },
      });
    const allowed = render(
      [approval, result('edit_file', { path: 'notes.md' })],
      (items) => <ApprovedToolCall item={items[0]!} />,
      withAnswer('allow_once'),
    );
    expect(allowed).toContain('data-testid="tool-call"');
    expect(allowed).toContain('50 ms');
    expect(render([approval], (items) => <ApprovedToolCall item={items[0]!} />, withAnswer('deny'))).toBe('');
  });
});
