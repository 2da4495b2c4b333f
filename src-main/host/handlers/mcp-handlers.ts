import type { HandlerTable } from '../handler';

type McpOperation =
  | 'mcp.server.list'
  | 'mcp.server.create'
  | 'mcp.server.update'
  | 'mcp.server.enable'
  | 'mcp.server.disable'
  | 'mcp.server.remove'
  | 'mcp.server.test'
  | 'mcp.session.servers'
  | 'mcp.session.setServer'
  | 'mcp.session.catalog'
  | 'mcp.prompt.get'
  | 'mcp.resource.read';

export const mcpHandlers: HandlerTable<McpOperation> = {
  'mcp.server.list': ({ runtime }) => runtime.mcp.list(),
  'mcp.server.create': ({ runtime }, input) => runtime.mcp.create(input),
  'mcp.server.update': ({ runtime }, input) => runtime.mcp.update(input),
  'mcp.server.enable': ({ runtime }, input) => runtime.mcp.setEnabled(input.serverId, true, input.expectedRevision),
  'mcp.server.disable': ({ runtime }, input) => runtime.mcp.setEnabled(input.serverId, false, input.expectedRevision),
  'mcp.server.remove': ({ runtime }, input) => runtime.mcp.remove(input.serverId, input.expectedRevision),
  'mcp.server.test': ({ runtime }, input) => runtime.mcp.test(input.serverId),
  'mcp.session.servers': ({ runtime }, input) => runtime.mcp.sessionServers(input.sessionId),
  'mcp.session.catalog': ({ runtime }, input) => runtime.mcp.catalog(input.sessionId),
  'mcp.prompt.get': ({ runtime }, input) => runtime.mcp.prompt(input),
  'mcp.resource.read': ({ runtime }, input) => runtime.mcp.resource(input),
  'mcp.session.setServer': ({ runtime }, input) =>
    runtime.mcp.setSessionServer(input.sessionId, input.serverId, input.on),
};
