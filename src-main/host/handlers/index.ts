import type { HandlerTable } from '../handler';
import { agentHandlers } from './agent-handlers';
import { codexHandlers } from './codex-handlers';
import { connectionHandlers } from './connection-handlers';
import { desktopHandlers } from './desktop-handlers';
import { goalHandlers } from './goal-handlers';
import { hostHandlers } from './host-handlers';
import { interactionHandlers } from './interaction-handlers';
import { permissionHandlers } from './permission-handlers';
import { sessionHandlers } from './session-handlers';
import { shellHandlers } from './shell-handlers';
import { turnHandlers } from './turn-handlers';
import { workhubHandlers } from './workhub-handlers';

/** Every operation's handler. The type makes a missing or extra handler a compile error. */
export const handlers: HandlerTable = {
  ...hostHandlers,
  ...sessionHandlers,
  ...turnHandlers,
  ...connectionHandlers,
  ...interactionHandlers,
  ...permissionHandlers,
  ...goalHandlers,
  ...workhubHandlers,
  ...shellHandlers,
  ...desktopHandlers,
  ...codexHandlers,
  ...agentHandlers,
};
