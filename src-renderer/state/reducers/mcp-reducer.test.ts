import { describe, expect, it } from 'vitest';
import type { ChangeEvent } from '../../../src-shared/events';
import type { McpServerRecord } from '../../../src-shared/mcp-model';
import { applyMcpEvents } from './mcp-reducer';

const server = (
  serverId: string,
  revision: number,
  state: McpServerRecord['status']['state'] = 'stopped',
): McpServerRecord => ({
  serverId,
  name: serverId,
  transport: 'stdio',
  command: 'x',
  args: [],
  cwd: null,
  env: [],
  url: null,
  headers: [],
  enabled: true,
  revision,
  createdAt: 0,
  updatedAt: 0,
  status: { state, message: null, stderrTail: null, serverInfo: null, tools: [] },
});
const event = (
  body: ChangeEvent extends infer E ? (E extends { seq: number } ? Omit<E, 'seq' | 'hostEpoch'> : never) : never,
  seq = 1,
) => ({ ...body, seq, hostEpoch: 'e' }) as ChangeEvent;

describe('applyMcpEvents', () => {
  it('adds, updates status in place and removes servers; ignores a list not read yet', () => {
    const list = [server('a', 1)];
    const changed = applyMcpEvents(list, [
      event({ kind: 'mcp.server.changed', server: server('a', 1, 'connected') }),
      event({ kind: 'mcp.server.changed', server: server('b', 1) }),
    ]);
    expect(changed?.map((known) => [known.serverId, known.status.state])).toEqual([
      ['a', 'connected'],
      ['b', 'stopped'],
    ]);
    expect(
      applyMcpEvents(changed, [event({ kind: 'mcp.server.removed', serverId: 'a' })])?.map((known) => known.serverId),
    ).toEqual(['b']);
    expect(applyMcpEvents(null, [event({ kind: 'mcp.server.changed', server: server('a', 1) })])).toBeNull();
  });

  it('does not put an older revision over a newer one', () => {
    const list = [server('a', 3)];
    expect(applyMcpEvents(list, [event({ kind: 'mcp.server.changed', server: server('a', 2, 'failed') })])).toBe(list);
  });

  it('returns the same list when no event concerns it', () => {
    const list = [server('a', 1)];
    expect(applyMcpEvents(list, [event({ kind: 'connections.changed', catalogRevision: 2 })])).toBe(list);
  });
});
