import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { TurnSummary } from '../../src-shared/model';
import { item, turn } from '../state/reducers/record-fixtures';
import { applySnapshotPage } from '../state/reducers/transcript-reducer';
import { StoreProvider } from '../state/store-context';
import { setupStore } from '../state/test-store';
import { TurnStatus } from './TurnStatus';

function render(summary: TurnSummary, options: { unreachable?: boolean } = {}) {
  const { store, link, disconnect } = setupStore();
  if (options.unreachable === true)
    link.setConnection({ status: 'reconnecting', hostEpoch: 'epoch-1', generation: 1, problem: null });
  store.setState({
    transcripts: {
      s1: applySnapshotPage(undefined, 's1', {
        items: [item({ itemId: 'a1', position: 0, turnId: summary.turnId })],
        turns: [summary],
        nextBefore: null,
      }),
    },
  });
  const rendered = { ...store, getInitialState: () => store.getState() };
  const html = renderToStaticMarkup(
    <StoreProvider store={rendered}>
      <TurnStatus sessionId="s1" turnId={summary.turnId} />
    </StoreProvider>,
  );
  disconnect();
  return html;
}

const ended = (status: TurnSummary['status'], terminalReason: string) => {
  const base = turn({ turnId: 't1', status });
  return { ...base, latestRun: { ...base.latestRun, status, terminalReason } } as TurnSummary;
};

describe('TurnStatus', () => {
  it('says in words why a turn stopped or was interrupted, never the code', () => {
    expect(render(ended('cancelled', 'stop_button'))).toContain('>Stopped<');
    const moved = render(ended('cancelled', 'superseded'));
    expect(moved).toContain('Stopped — you sent a new message instead of answering');
    expect(render(ended('cancelled', 'workhub_stop'))).toContain('Stopped from the WorkHub');
    expect(render(ended('cancelled', 'something_new'))).toContain('Stopped — it ended early');
    expect(render(ended('interrupted', 'app_shutdown'))).toContain('Interrupted — the app was closed');
    for (const html of [moved, render(ended('interrupted', 'app_shutdown'))]) expect(html).not.toMatch(/[a-z]+_[a-z]+/);
  });

  it('says which paired device pressed Stop', () => {
    const stopped = ended('cancelled', 'stop_button');
    expect(render({ ...stopped, latestRun: { ...stopped.latestRun, stoppedFrom: 'Pixel 9' } })).toContain(
      '>Stopped from Pixel 9<',
    );
  });

  it('offers the same Resume after Stop as after a restart', () => {
    for (const [status, reason] of [
      ['cancelled', 'stop_button'],
      ['interrupted', 'app_restarted'],
    ] as const) {
      const html = render(ended(status, reason));
      expect(html).toContain('>Resume</button>');
      expect(html).not.toContain('Continue');
    }
  });

  it('while the host is unreachable, a running turn shows its status as unknown and offers nothing', () => {
    const running = turn({ turnId: 't1', status: 'running' });
    expect(render(running)).toContain('Working…');
    const frozen = render(running, { unreachable: true });
    expect(frozen).toContain('Status unknown until Cairn reconnects');
    expect(frozen).toContain('data-frozen="true"');
    expect(frozen).not.toContain('Working…');
    const interrupted = render(ended('interrupted', 'app_restarted'), { unreachable: true });
    expect(interrupted).toContain('Interrupted — the app restarted');
    expect(interrupted).not.toContain('Resume');
  });
});
