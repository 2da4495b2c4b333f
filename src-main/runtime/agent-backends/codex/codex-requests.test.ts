import { describe, expect, it } from 'vitest';
import { interactionRequestSchema } from '../../../../src-shared/interaction-model';
import { bridgeOtherRequest, declineResponse, otherResponse } from './codex-requests';
import { answerAsInput } from './interaction-bridge';

/**
 * Codex's permissions approval and MCP form elicitation cannot be provoked offline with codex 0.171
 * and the fake Responses server (the first needs Codex's request_permissions flow, the second an MCP
 * server configured in Codex that elicits), so the mapping is tested here on the generated protocol
 * shapes (`codex app-server generate-ts`).
 */
const permissions = {
  threadId: 'th',
  turnId: 'tu',
  itemId: 'item-7',
  environmentId: null,
  startedAtMs: 1,
  cwd: '/work/project',
  reason: 'Needs to fetch the package index',
  permissions: { network: { enabled: true }, fileSystem: { read: null, write: ['/work/cache'] } },
};

const elicitation = {
  threadId: 'th',
  turnId: 'tu',
  serverName: 'tickets',
  environmentId: null,
  mode: 'form',
  _meta: null,
  message: 'Which ticket should I file this under?',
  requestedSchema: {
    type: 'object',
    properties: {
      project: { type: 'string', title: 'Project', enum: ['web', 'api'], enumNames: ['Web app', 'API'] },
      priority: { type: 'integer', title: 'Priority', minimum: 1, maximum: 5 },
      urgent: { type: 'boolean', description: 'Page the on-call person' },
      contact: { type: 'string', format: 'email' },
    },
    required: ['project', 'priority'],
  },
};

describe("Codex's permissions approval as a Cairn approval card", () => {
  it('shows what Codex asks for, and is a valid Cairn permission request', () => {
    const bridged = bridgeOtherRequest('item/permissions/requestApproval', permissions, 3);
    expect(bridged).toMatchObject({
      toolCallId: 'item-7',
      toolName: 'codex_permissions',
      request: {
        kind: 'permission',
        summary: 'Give Codex more access: network access; write access to /work/cache',
        preview: { kind: 'command', cwd: '/work/project' },
      },
    });
    expect(JSON.stringify(bridged?.request)).toContain('Needs to fetch the package index');
    expect(interactionRequestSchema.safeParse(bridged?.request).success).toBe(true);
  });

  it('allowed grants what was asked, for the turn or the session; denied grants nothing', () => {
    expect(otherResponse('item/permissions/requestApproval', permissions, null, false)).toEqual({
      permissions: permissions.permissions,
      scope: 'turn',
    });
    expect(otherResponse('item/permissions/requestApproval', permissions, null, true)).toMatchObject({
      scope: 'session',
    });
    expect(otherResponse('item/permissions/requestApproval', permissions, { action: 'deny' }, false)).toEqual({
      permissions: {},
      scope: 'turn',
    });
  });

  it('after a restart, the answer is told as the next input', () => {
    const call = { toolName: 'codex_permissions', input: { permissions: permissions.permissions } };
    expect(answerAsInput(call, null, true)).toContain('they granted the permissions you asked for');
    expect(answerAsInput(call, { toolCallId: 'item-7', output: { action: 'deny' } }, false)).toContain(
      'they refused the permissions',
    );
  });
});

describe("an MCP server's form elicitation through Codex as a Cairn form", () => {
  it('maps each field of the requested schema, and is a valid Cairn form', () => {
    const bridged = bridgeOtherRequest('mcpServer/elicitation/request', elicitation, 12);
    expect(bridged?.toolCallId).toBe('elicitation-12');
    expect(bridged?.request).toEqual({
      kind: 'form',
      title: 'tickets asks',
      description: 'Which ticket should I file this under?',
      fields: [
        {
          id: 'project',
          label: 'Project',
          required: true,
          type: 'single_select',
          options: [
            { value: 'web', label: 'Web app' },
            { value: 'api', label: 'API' },
          ],
        },
        { id: 'priority', label: 'Priority', required: true, type: 'integer', minimum: 1, maximum: 5 },
        { id: 'urgent', label: 'urgent', required: false, help: 'Page the on-call person', type: 'boolean' },
        { id: 'contact', label: 'contact', required: false, type: 'string', format: 'email' },
      ],
    });
    expect(interactionRequestSchema.safeParse(bridged?.request).success).toBe(true);
  });

  it('answers with the values, or declines / cancels with no content', () => {
    const values = { project: 'api', priority: 2 };
    expect(otherResponse('mcpServer/elicitation/request', elicitation, { action: 'accept', values }, false)).toEqual({
      action: 'accept',
      content: values,
      _meta: null,
    });
    expect(otherResponse('mcpServer/elicitation/request', elicitation, { action: 'decline' }, false)).toEqual({
      action: 'decline',
      content: null,
      _meta: null,
    });
    expect(otherResponse('mcpServer/elicitation/request', elicitation, { action: 'cancel' }, false)).toEqual({
      action: 'cancel',
      content: null,
      _meta: null,
    });
  });

  it('a URL elicitation, or a field Cairn cannot show as it is named, is not bridged', () => {
    expect(
      bridgeOtherRequest(
        'mcpServer/elicitation/request',
        { ...elicitation, mode: 'url', url: 'https://example.test', elicitationId: 'e' },
        1,
      ),
    ).toBeNull();
    const oddName = {
      ...elicitation,
      requestedSchema: { type: 'object', properties: { 'due date': { type: 'string' } } },
    };
    expect(bridgeOtherRequest('mcpServer/elicitation/request', oddName, 1)).toBeNull();
  });
});

describe('what Codex is answered for a request Cairn does not show', () => {
  it('has the shape of that request', () => {
    expect(declineResponse('mcpServer/elicitation/request')).toEqual({ action: 'decline', content: null, _meta: null });
    expect(declineResponse('item/tool/call')).toMatchObject({
      success: false,
      contentItems: [{ type: 'inputText', text: expect.stringContaining('dynamic tools') as unknown }],
    });
    expect(declineResponse('item/permissions/requestApproval')).toEqual({ permissions: {}, scope: 'turn' });
    expect(declineResponse('item/commandExecution/requestApproval')).toEqual({ decision: 'decline' });
  });
});
