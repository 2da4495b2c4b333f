import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStores, type Stores } from '../../storage/stores';
import { tempDataDir } from '../../testing/host-fixture';
import type { AgentRunInput } from '../contract/agent-backend';
import { NO_HOOKS, type HookEventRequest } from '../hooks/hook-service';
import { EventBus } from '../ports/event-bus';
import { sequentialIds, silentLogger, systemClock } from '../ports/ports';
import { SESSION_START_MEMORY, TurnHooks, type HookRunSink } from './turn-hooks';

let temp: ReturnType<typeof tempDataDir>;
let stores: Stores;
let fired: HookEventRequest[];
let hooks: TurnHooks;
beforeEach(() => {
  temp = tempDataDir();
  stores = openStores(temp.dir);
  fired = [];
  hooks = new TurnHooks({
    stores,
    bus: new EventBus('epoch', silentLogger),
    clock: systemClock,
    ids: sequentialIds(),
    fire: async (request) => {
      fired.push(request);
      return NO_HOOKS;
    },
    fileErrors: () => [],
    runsToolsItself: () => false,
  });
});
afterEach(() => {
  stores.close();
  temp.cleanup();
});

const sink: HookRunSink = { isClosed: false, recordHookRun() {}, recordHookFileError() {} };
const run = (sessionId: string) =>
  hooks.beforeRun(
    {
      sessionId,
      turnId: 't1',
      runId: 'r1',
      runKind: 'initial',
      connectionId: 'offline-demo',
      text: 'Go on',
      model: null,
      maxSteps: 10,
      history: [],
      approvedToolCall: null,
      resume: null,
    } satisfies AgentRunInput,
    sink,
    new AbortController().signal,
  );
const sessionStarts = (sessionId: string) =>
  fired.filter((request) => request.event === 'SessionStart' && request.sessionId === sessionId).length;

describe('SessionStart, once per session and host', () => {
  it('fires on a session’s first run only, and again after it was archived', async () => {
    await run('s1');
    await run('s1');
    expect(sessionStarts('s1')).toBe(1);
    hooks.sessionEnded('s1', 'archived');
    await run('s1');
    expect(sessionStarts('s1')).toBe(2);
  });

  it('remembers a bounded number of sessions, the least recently run forgotten first (no growth over days)', async () => {
    await run('first');
    await run('busy');
    for (let index = 0; index < SESSION_START_MEMORY - 1; index += 1) {
      await run(`child-${index}`);
      if (index % 100 === 0) await run('busy'); // run again: stays among the recent
    }
    await run('busy');
    await run('first');
    expect(sessionStarts('busy')).toBe(1);
    // `first` ran before a thousand others: forgotten, so its next run is a start again.
    expect(sessionStarts('first')).toBe(2);
  });
});
