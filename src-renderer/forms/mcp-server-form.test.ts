import { describe, expect, it } from 'vitest';
import type { McpServerRecord } from '../../src-shared/mcp-model';
import { emptyMcpDraft, mcpCreateInput, mcpDraftOf, mcpUpdateInput, validateMcpDraft } from './mcp-server-form';

const record: McpServerRecord = {
  serverId: 'mcp_server-1',
  name: 'Docs',
  transport: 'http',
  command: null,
  args: [],
  cwd: null,
  env: [],
  url: 'https://docs.example/mcp',
  headers: [
    { name: 'Authorization', secret: true, value: null, hasValue: true },
    { name: 'X-Team', secret: false, value: 'blue', hasValue: true },
  ],
  enabled: true,
  revision: 3,
  createdAt: 0,
  updatedAt: 0,
  status: { state: 'stopped', message: null, stderrTail: null, serverInfo: null, tools: [] },
};

describe('the MCP server form', () => {
  it('splits arguments by line and sends a stdio server with its variables', () => {
    const draft = {
      ...emptyMcpDraft(),
      name: ' Files ',
      command: 'npx',
      args: '-y\n @scope/server \n\n',
      settings: [{ name: 'TOKEN', value: 'abc', secret: true, stored: false }],
    };
    expect(validateMcpDraft(draft)).toEqual({});
    expect(mcpCreateInput(draft)).toEqual({
      name: 'Files',
      transport: 'stdio',
      command: 'npx',
      args: ['-y', '@scope/server'],
      env: [{ name: 'TOKEN', secret: true, value: 'abc' }],
    });
  });

  it('keeps a stored secret header when its field is left empty, and sends the expected revision', () => {
    const draft = mcpDraftOf(record);
    expect(draft.settings[0]).toEqual({ name: 'Authorization', value: '', secret: true, stored: true });
    expect(mcpUpdateInput(record, { ...draft, name: 'Docs 2' })).toEqual({
      serverId: 'mcp_server-1',
      expectedRevision: 3,
      name: 'Docs 2',
      url: 'https://docs.example/mcp',
      headers: [
        { name: 'Authorization', secret: true },
        { name: 'X-Team', secret: false, value: 'blue' },
      ],
    });
  });

  it('says what is missing', () => {
    expect(validateMcpDraft(emptyMcpDraft())).toEqual({
      name: 'Give the server a name.',
      command: 'Give the command that starts the server.',
    });
    expect(
      validateMcpDraft({
        ...emptyMcpDraft(),
        name: 'x',
        transport: 'http',
        url: 'ftp://x',
        settings: [{ name: 'Bad name', value: '', secret: false, stored: false }],
      }),
    ).toEqual({
      url: 'Use an http:// or https:// address.',
      settings: 'A header name uses letters, digits and _ . - only.',
    });
    expect(
      validateMcpDraft({
        ...emptyMcpDraft(),
        name: 'x',
        command: 'y',
        settings: [{ name: 'K', value: '', secret: true, stored: false }],
      }).settings,
    ).toBe('Give a value for the secret variable K.');
  });
});
