import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { item, turn } from '../state/reducers/record-fixtures';
import { applySnapshotPage } from '../state/reducers/transcript-reducer';
import { StoreProvider } from '../state/store-context';
import { setupStore } from '../state/test-store';
import { MessageRow } from './MessageRow';

function render(kind: 'assistant_message' | 'reasoning', unreachable: boolean) {
  const { store, link, disconnect } = setupStore();
  if (unreachable) link.setConnection({ status: 'reconnecting', hostEpoch: 'epoch-1', generation: 1, problem: null });
  const items = [item({ itemId: 'a1', position: 0, kind, text: 'Half a sentence', state: 'streaming' })];
  store.setState({
    transcripts: {
      s1: applySnapshotPage(undefined, 's1', {
        items,
        turns: [turn({ turnId: 't1', status: 'running' })],
        nextBefore: null,
      }),
    },
  });
  const rendered = { ...store, getInitialState: () => store.getState() };
  const html = renderToStaticMarkup(
    <StoreProvider store={rendered}>
      <MessageRow sessionId="s1" itemId="a1" index={0} />
    </StoreProvider>,
  );
  disconnect();
  return html;
}

describe('MessageRow', () => {
  it('shows the typing cursor and "Thinking…" only while the host can be reached', () => {
    expect(render('assistant_message', false)).toContain('is-streaming');
    expect(render('assistant_message', true)).not.toContain('is-streaming');
    expect(render('reasoning', false)).toContain('Thinking…');
    const frozen = render('reasoning', true);
    expect(frozen).not.toContain('Thinking…');
    expect(frozen).not.toContain('is-streaming');
  });
});
