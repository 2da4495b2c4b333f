import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { TranscriptItem } from '../../../src-shared/model';
import { agentNode } from '../../state/reducers/agent-fixtures';
import { applyAgentTree, EMPTY_AGENTS } from '../../state/reducers/agents-reducer';
import { item, session, turn } from '../../state/reducers/record-fixtures';
import { applySnapshotPage } from '../../state/reducers/transcript-reducer';
import { StoreProvider } from '../../state/store-context';
import { setupStore } from '../../state/test-store';
import { agentTreeId, type AgentTreeNode } from '../../../src-shared/agent-model';
import { SpawnCard } from './SpawnCard';
import { AgentBreadcrumb } from './AgentBreadcrumb';
import { AgentChildren } from './AgentChildren';
import { StopButton } from './StopButton';

const spawnCall = (toolCallId: string, task: string) =>
  item({
    itemId: `c-${toolCallId}`,
    sessionId: 'r',
    turnId: 't1',
    position: 1,
    kind: 'tool_call',
    text: 'spawn_agent',
    data: { toolCallId, toolName: 'spawn_agent', input: { agent: 'worker', task } },
  });
const spawnResult = (toolCallId: string, output: unknown, isError = false) =>
  item({
    itemId: `r-${toolCallId}`,
    sessionId: 'r',
    turnId: 't1',
    position: 2,
    kind: 'tool_result',
    text: 'spawn_agent',
    data: { toolCallId, toolName: 'spawn_agent', output, isError },
  });

function render(
  element: React.ReactNode,
  options: { items?: TranscriptItem[]; children?: AgentTreeNode[]; expanded?: boolean; selected?: string } = {},
) {
  const { store, disconnect } = setupStore();
  const children = options.children ?? [];
  store.setState({
    sessions: {
      ...store.getState().sessions,
      byId: {
        r: session({ sessionId: 'r', title: 'Plan the release' }),
        c1: session({ sessionId: 'c1', title: 'Worker: check the notes' }),
      },
    },
    transcripts: {
      r: applySnapshotPage(undefined, 'r', {
        items: options.items ?? [],
        turns: [turn({ turnId: 't1', sessionId: 'r', status: 'running' })],
        nextBefore: null,
      }),
    },
    agents: applyAgentTree(EMPTY_AGENTS, {
      treeId: agentTreeId('r'),
      rootSessionId: 'r',
      failedReason: null,
      children,
      usage: { inputTokens: 0, outputTokens: 0, costUsd: null },
    }),
    expandedAgentRoots: options.expanded === true ? { r: true } : {},
    selectedSessionId: options.selected ?? null,
  });
  const rendered = { ...store, getInitialState: () => store.getState() };
  const html = renderToStaticMarkup(<StoreProvider store={rendered}>{element}</StoreProvider>);
  disconnect();
  return html;
}

describe('the spawn card', () => {
  it('shows the child’s agent, task, live status and a link into its transcript', () => {
    const call = spawnCall('spawn-t1-1', 'check the notes');
    const html = render(<SpawnCard item={call} common={{ 'data-testid': 'message' }} />, {
      items: [call],
      children: [agentNode({ childSessionId: 'c1', task: 'check the notes', status: 'waiting' })],
    });
    expect(html).toContain('data-testid="spawn-card"');
    expect(html).toContain('data-child-session-id="c1"');
    expect(html).toContain('>Worker<');
    expect(html).toContain('check the notes');
    expect(html).toContain('waiting for you');
    expect(html).toContain('href="#session=c1"');
    expect(html).toContain('aria-label="Open transcript: Worker: check the notes"');
  });

  it('before the child exists: the task from the call, starting, no link yet', () => {
    const call = spawnCall('spawn-t1-1', 'count the files');
    const html = render(<SpawnCard item={call} common={{}} />, { items: [call] });
    expect(html).toContain('data-status="starting"');
    expect(html).toContain('count the files');
    expect(html).not.toContain('Open transcript');
  });

  it('a refused spawn shows as the failed tool call, with the refusal', () => {
    const call = spawnCall('spawn-t1-9', 'too many');
    const refused = spawnResult('spawn-t1-9', { error: 'One turn may start at most 8 child agents.' }, true);
    const html = render(<SpawnCard item={call} common={{}} />, { items: [call, refused] });
    expect(html).not.toContain('spawn-card');
    expect(html).toContain('data-status="failed"');
    expect(html).toContain('at most 8 child agents');
  });

  it('a result whose call is on an older page stands in for it, finding the child from the output', () => {
    const result = spawnResult('spawn-t1-1', { childSessionId: 'c1', status: 'completed' });
    const html = render(<SpawnCard item={result} common={{}} />, {
      items: [result],
      children: [agentNode({ childSessionId: 'c1', status: 'completed' })],
    });
    expect(html).toContain('data-child-session-id="c1"');
    expect(html).toContain('>completed<');
  });
});

describe('child agents in the sidebar', () => {
  const children = [
    agentNode({ childSessionId: 'c1', status: 'running' }),
    agentNode({
      childSessionId: 'c2',
      createdAt: 2000,
      status: 'cancelled',
      terminalReason: 'parent_stopped',
      task: 'second',
    }),
  ];

  it('are closed by default: a disclosure with the count and how many work', () => {
    const html = render(<AgentChildren rootSessionId="r" tabStopId="r" />, { children });
    expect(html).toContain('aria-expanded="false"');
    expect(html).toContain('2 child agents');
    expect(html).toContain('1 working');
    expect(html).not.toContain('agent-child-row');
    expect(html).toContain('tabindex="-1"');
  });

  it('opened, list each child with its status; the open child holds the Tab stop', () => {
    const html = render(<AgentChildren rootSessionId="r" tabStopId="c2" />, {
      children,
      expanded: true,
      selected: 'c2',
    });
    expect(html).toContain('aria-expanded="true"');
    expect(html.match(/data-testid="agent-child-row"/g)).toHaveLength(2);
    expect(html).toContain('Worker: check the notes');
    expect(html).toContain('Worker: second');
    expect(html).toContain('title="cancelled — the agent that started it was stopped"');
    expect(html.match(/tabindex="0"/g)).toHaveLength(1);
    expect(html).toMatch(/aria-current="page" tabindex="0"/);
  });

  it('nothing under a session without children', () => {
    expect(render(<AgentChildren rootSessionId="r" tabStopId="r" />)).toBe('');
  });
});

describe('a child agent’s breadcrumb and the root’s Stop', () => {
  it('links back to the parent (and root) and names this agent', () => {
    const html = render(<AgentBreadcrumb sessionId="g1" />, {
      children: [
        agentNode({ childSessionId: 'c1' }),
        agentNode({ childSessionId: 'g1', parentSessionId: 'c1', depth: 2, agentName: 'Explore' }),
      ],
    });
    expect(html).toContain('aria-label="Agent tree"');
    expect(html.indexOf('Plan the release')).toBeLessThan(html.indexOf('Worker: check the notes'));
    expect(html).toContain('href="#session=r"');
    expect(html).toContain('href="#session=c1"');
    expect(html).toContain('<li aria-current="page">Explore agent</li>');
    expect(render(<AgentBreadcrumb sessionId="r" />)).toBe('');
  });

  it('Stop on the root says how many children it also stops', () => {
    const children = [
      agentNode({ childSessionId: 'c1' }),
      agentNode({ childSessionId: 'c2', createdAt: 2000, status: 'waiting' }),
    ];
    expect(render(<StopButton sessionId="r" busy unreachable={false} />, { children })).toContain(
      'aria-label="Stop — also stops 2 child agents"',
    );
    // The root's own turn ended, its children still work: Stop stops the tree.
    const treeOnly = render(<StopButton sessionId="r" busy={false} unreachable={false} />, { children });
    expect(treeOnly).toContain('aria-label="Stop — also stops 2 child agents"');
    expect(treeOnly).not.toContain('(Esc)');
    expect(render(<StopButton sessionId="r" busy unreachable={false} />)).toContain('aria-label="Stop"');
    expect(render(<StopButton sessionId="r" busy={false} unreachable={false} />)).toBe('');
    expect(render(<StopButton sessionId="r" busy unreachable />, { children })).toBe('');
  });
});
