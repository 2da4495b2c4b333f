import type { HandlerTable } from '../handler';
import { acpHandlers } from './acp-handlers';
import { automationHandlers } from './automation-handlers';
import { branchHandlers } from './branch-handlers';
import { chatHandlers } from './chat-handlers';
import { checkpointHandlers } from './checkpoint-handlers';
import { attachmentHandlers } from './attachment-handlers';
import { agentHandlers } from './agent-handlers';
import { codexHandlers } from './codex-handlers';
import { compactionHandlers } from './compaction-handlers';
import { hookHandlers } from './hook-handlers';
import { connectionHandlers } from './connection-handlers';
import { contextHandlers } from './context-handlers';
import { desktopHandlers } from './desktop-handlers';
import { deviceHandlers } from './device-handlers';
import { folderHandlers } from './folder-handlers';
import { goalHandlers } from './goal-handlers';
import { hostHandlers } from './host-handlers';
import { interactionHandlers } from './interaction-handlers';
import { memoryHandlers } from './memory-handlers';
import { mcpHandlers } from './mcp-handlers';
import { permissionHandlers } from './permission-handlers';
import { sessionHandlers } from './session-handlers';
import { shellHandlers } from './shell-handlers';
import { skillHandlers } from './skill-handlers';
import { turnHandlers } from './turn-handlers';
import { workhubHandlers } from './workhub-handlers';
import { worktreeHandlers } from './worktree-handlers';

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
  ...folderHandlers,
  ...codexHandlers,
  ...automationHandlers,
  ...memoryHandlers,
  ...branchHandlers,
  ...skillHandlers,
  ...mcpHandlers,
  ...chatHandlers,
  ...attachmentHandlers,
  ...contextHandlers,
  ...acpHandlers,
  ...agentHandlers,
  ...compactionHandlers,
  ...hookHandlers,
  ...checkpointHandlers,
  ...worktreeHandlers,
  ...acpHandlers,
  ...deviceHandlers,
};
