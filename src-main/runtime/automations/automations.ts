import type { Stores } from '../../storage/stores';
import type { ConnectionService } from '../connections/connection-service';
import type { EventBus } from '../ports/event-bus';
import type { AdmissionGate } from '../lifecycle/admission-gate';
import type { Clock, Ids, Logger } from '../ports/ports';
import type { SessionService } from '../sessions/session-service';
import type { TurnService } from '../turns/turn-service';
import { AutomationService } from './automation-service';
import { watchAutomationTurns } from './automation-notices';
import { FiringRunner } from './firing-runner';
import { Scheduler } from './scheduler';

export interface AutomationsDeps {
  readonly stores: Stores;
  readonly bus: EventBus;
  readonly clock: Clock;
  readonly ids: Ids;
  readonly logger: Logger;
  readonly admission: AdmissionGate;
  readonly turns: TurnService;
  readonly sessions: SessionService;
  readonly connections: ConnectionService;
  readonly automations?: { readonly timer?: Clock; readonly afterRecord?: (firingId: string) => void };
}

export interface Automations {
  readonly service: AutomationService;
  readonly scheduler: Scheduler;
}

/** Wires the automations domain: the runner that starts a firing, the scheduler, the operations, the notices. */
export function createAutomations(deps: AutomationsDeps): Automations {
  const runner = new FiringRunner(deps);
  const scheduler = new Scheduler({
    ...deps,
    timer: deps.automations?.timer ?? deps.clock,
    runner,
    ...(deps.automations?.afterRecord === undefined ? {} : { afterRecord: deps.automations.afterRecord }),
  });
  watchAutomationTurns(deps.stores, deps.bus);
  return { service: new AutomationService({ ...deps, scheduler, runner }), scheduler };
}
