import os from 'node:os';
import { NetworkInteractions } from '../interactions/network-interactions';
import type { EventBus } from '../ports/event-bus';
import { SANDBOX_OFF } from '../sandbox/sandbox-availability';
import { SandboxService } from '../sandbox/sandbox-service';
import { SandboxSettingsService } from '../sandbox/sandbox-settings';
import type { RuntimeDeps } from './runtime-contract';

/** The sandbox: the person's lists, the cards of blocked hosts, and how each session's commands run. */
export function wireSandbox(deps: RuntimeDeps, bus: EventBus) {
  const sandboxSettings = new SandboxSettingsService({
    settings: deps.stores.settings,
    home: os.homedir(),
    dataDir: deps.dataDir,
  });
  const networkCards = new NetworkInteractions({ ...deps, bus, grants: sandboxSettings });
  const sandbox = new SandboxService({
    availability: deps.sandbox ?? SANDBOX_OFF,
    dataDir: deps.dataDir,
    extras: () => {
      const settings = sandboxSettings.get();
      return { denied: settings.deniedPaths, writable: settings.writableFolders };
    },
    network: {
      allowedHosts: (sessionId) => sandboxSettings.allowedHosts(sessionId),
      takeOnce: (sessionId) => sandboxSettings.takeOnce(sessionId),
      takeOnceFor: (sessionId, host, port) => sandboxSettings.takeOnceFor(sessionId, host, port),
      currentRun: (sessionId) => {
        const active = deps.stores.turns.activeTurn(sessionId);
        const turn = active ?? deps.stores.turns.latestTurn(sessionId);
        return turn === null ? null : { turnId: turn.turnId, runId: turn.latestRun.runId, inFlight: active !== null };
      },
      onBlocked: (block) => networkCards.blocked(block),
    },
  });
  return { sandboxSettings, networkCards, sandbox };
}
