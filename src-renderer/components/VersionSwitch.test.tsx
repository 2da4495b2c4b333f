import { describe, expect, it } from 'vitest';
import type { SessionBranches } from '../../src-shared/branch-model';
import { item, turn } from '../state/reducers/record-fixtures';
import { applySnapshotPage } from '../state/reducers/transcript-reducer';
import { StoreProvider } from '../state/store-context';
import { setupStore } from '../state/test-store';
import { MessageRow } from './MessageRow';
import { renderWhenLoaded } from './test-render';

const version = (sessionId: string, turnId: string, origin: 'original' | 'edit' | 'rewind') => ({
  sessionId,
  turnId,
  messageItemId: `${sessionId}-u`,
  answerItemId: `${sessionId}-a`,
  origin,
  createdAt: 1,
});

/** The source session s1 with one exchange; its turn t1 was edited in branch b1, and rewound to in r1. */
async function render(itemId: 's1-u' | 's1-a', links: SessionBranches) {
  const { store, disconnect } = setupStore();
  const items = [
    item({ itemId: 's1-u', position: 0, kind: 'user_message', text: 'Plan a day' }),
    item({ itemId: 's1-a', position: 1, text: 'Here is a plan' }),
  ];
  store.setState({
    transcripts: {
      s1: applySnapshotPage(undefined, 's1', { items, turns: [turn({ turnId: 't1' })], nextBefore: null }),
    },
    branchLinks: { s1: links },
  });
  const html = await renderWhenLoaded(
    <StoreProvider store={{ ...store, getInitialState: () => store.getState() }}>
      <MessageRow sessionId="s1" itemId={itemId} index={itemId === 's1-u' ? 0 : 1} />
    </StoreProvider>,
  );
  disconnect();
  return html;
}

describe('the version switch under a message', () => {
  const links: SessionBranches = {
    branchedFrom: null,
    branches: [
      { branchSessionId: 'b1', title: 'Plans (branch)', atItemId: 's1-u', mode: 'edit', createdAt: 2 },
      { branchSessionId: 'r1', title: 'Plans (rewound)', atItemId: 's1-u', mode: 'rewind', createdAt: 3 },
    ],
    versions: [{ turnId: 't1', index: 0, versions: [version('s1', 't1', 'original'), version('b1', 'b1-t', 'edit')] }],
  };

  it('shows ‹ 1 / 2 › under the edited message, in place of the link to that branch; a rewind with no message yet keeps its link', async () => {
    const html = await render('s1-u', links);
    expect(html).toContain('aria-label="Version 1 of 2"');
    expect(html).toMatch(/aria-label="Previous version"[^>]*disabled/);
    expect(html).toContain('aria-label="Next version"');
    expect(html).toContain('1 / 2');
    expect(html).not.toContain('Branched here → Plans (branch)');
    expect(html).toContain('Branched here → Plans (rewound)');
  });

  it('shows nothing of it under the answer of an edited turn', async () => {
    expect(await render('s1-a', links)).not.toContain('Version');
  });
});
