import { afterEach, describe, expect, it } from 'vitest';
import { openStores, type Stores } from '../../storage/stores';
import { tempDataDir } from '../../testing/host-fixture';
import { EventBus } from '../ports/event-bus';
import { sequentialIds, silentLogger, systemClock } from '../ports/ports';
import { endRun, openTurn } from '../turns/run-lifecycle';
import { NetworkInteractions } from './network-interactions';

/** A reported block in the record: a notice, and a card unless one is pending for the host or none is wanted. */
describe('network blocks in the transcript', () => {
  let stores: Stores | null = null;
  let cleanup: (() => void) | null = null;
  afterEach(() => {
    stores?.close();
    cleanup?.();
    stores = null;
  });

  it('a walled agent’s block between turns is a notice in the latest run without a card; in a run, one card per host while pending', () => {
    const temp = tempDataDir();
    cleanup = temp.cleanup;
    const s = openStores(temp.dir);
    stores = s;
    s.sessions.insert({
      sessionId: 's1',
      title: 'S',
      titleSource: 'user',
      workspacePath: null,
      connectionId: 'c1',
      model: null,
      permissionMode: 'auto',
      now: 0,
    });
    const run = { sessionId: 's1', turnId: 't1', runId: 'r1' };
    s.transaction(() => openTurn(s, { ...run, origin: 'user', text: 'hi', maxSteps: 5 }, { origin: 'user' }, 1));
    s.transaction(() => endRun(s, run, { status: 'completed', terminalReason: 'model_done' }, 2));
    const cards = new NetworkInteractions({
      stores: s,
      bus: new EventBus('e1', silentLogger),
      clock: systemClock,
      ids: sequentialIds(),
      grants: { allowOnce: () => undefined, allowHost: () => undefined },
    });
    const block = { ...run, host: 'registry.npmjs.org', port: 443, own: false };
    const notices = () =>
      s.transcript
        .page('s1', null, 50)
        .filter((item) => item.kind === 'notice')
        .map((item) => [item.text, item.data?.interactionId === undefined ? 'no card' : 'card']);
    const pending = () => s.interactions.pendingOfSession('s1');

    cards.blocked({ ...block, noCard: true });
    expect(notices()).toEqual([['blocked by the sandbox: network to registry.npmjs.org', 'no card']]);
    expect(pending()).toEqual([]);

    cards.blocked(block);
    cards.blocked(block);
    expect(pending().map((interaction) => interaction.request)).toEqual([
      { kind: 'network', host: 'registry.npmjs.org', port: 443 },
    ]);
    expect(notices().map(([, card]) => card)).toEqual(['no card', 'card', 'no card']);
  });
});
