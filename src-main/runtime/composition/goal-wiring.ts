import type { EventBus } from '../ports/event-bus';
import type { GoalDriver } from '../goals/goal-driver';
import { GoalService } from '../goals/goal-service';
import type { TurnService } from '../turns/turn-service';
import type { RuntimeDeps } from './runtime-contract';

/** Goals: the driver is poked when a goal changes, and stopping a goal stops its turn in progress (no other turn). */
export function wireGoals(deps: RuntimeDeps, bus: EventBus, driver: GoalDriver, turns: TurnService): GoalService {
  return new GoalService({
    ...deps,
    bus,
    poke: (sessionId) => driver.poke(sessionId),
    stopGoalTurn: (sessionId, source) => {
      const active = deps.stores.turns.activeTurn(sessionId);
      if (active !== null && active.origin === 'goal') turns.stop(sessionId, active.turnId, source);
    },
  });
}
