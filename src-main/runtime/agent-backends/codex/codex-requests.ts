import { z } from 'zod';
import type { FormField, FormRequest, PermissionRequest } from '../../../../src-shared/interaction-model';

/**
 * Codex's other server→client requests: the permissions approval (`item/permissions/requestApproval`)
 * becomes a Cairn approval card, an MCP server's form elicitation (`mcpServer/elicitation/request`,
 * mode `form`) a Cairn form; a URL elicitation and dynamic tool calls (`item/tool/call`) are declined
 * with a message, since Cairn has no way to show them. Each request has its own response shape
 * (`declineResponse`).
 */
export const OTHER_METHODS = {
  permissionsApproval: 'item/permissions/requestApproval',
  elicitation: 'mcpServer/elicitation/request',
  dynamicToolCall: 'item/tool/call',
} as const;

export const CODEX_PERMISSIONS_TOOL = 'codex_permissions';
export const CODEX_ELICITATION_TOOL = 'codex_mcp_form';

const pathList = z.array(z.string()).nullable().optional();
const permissionsApprovalSchema = z
  .object({
    itemId: z.string(),
    cwd: z.string().nullable().optional(),
    reason: z.string().nullable().optional(),
    permissions: z
      .object({
        network: z.object({ enabled: z.boolean().nullable() }).passthrough().nullable().optional(),
        fileSystem: z.object({ read: pathList, write: pathList }).passthrough().nullable().optional(),
      })
      .passthrough(),
  })
  .passthrough();

const primitiveSchema = z
  .object({
    type: z.enum(['string', 'number', 'integer', 'boolean']),
    title: z.string().optional(),
    description: z.string().optional(),
    enum: z.array(z.string()).optional(),
    enumNames: z.array(z.string()).optional(),
    format: z.string().optional(),
    minimum: z.number().optional(),
    maximum: z.number().optional(),
  })
  .passthrough();
const elicitationSchema = z
  .object({
    serverName: z.string(),
    mode: z.literal('form'),
    message: z.string(),
    requestedSchema: z
      .object({ properties: z.record(z.string(), primitiveSchema), required: z.array(z.string()).optional() })
      .passthrough(),
  })
  .passthrough();

export interface OtherBridged {
  readonly toolCallId: string;
  readonly toolName: string;
  readonly input: Record<string, unknown>;
  readonly request: PermissionRequest | FormRequest;
}

/** The Cairn interaction for a permissions approval or a form elicitation; null for what Cairn declines. */
export function bridgeOtherRequest(method: string, params: unknown, requestId: number | string): OtherBridged | null {
  if (method === OTHER_METHODS.permissionsApproval) {
    const parsed = permissionsApprovalSchema.safeParse(params);
    if (!parsed.success) return null;
    const wanted = describePermissions(parsed.data.permissions);
    const cwd = parsed.data.cwd ?? '';
    return {
      toolCallId: parsed.data.itemId,
      toolName: CODEX_PERMISSIONS_TOOL,
      input: {
        permissions: parsed.data.permissions,
        cwd,
        ...(parsed.data.reason == null ? {} : { reason: parsed.data.reason }),
      },
      request: {
        kind: 'permission',
        toolName: CODEX_PERMISSIONS_TOOL,
        summary: `Give Codex more access: ${wanted}`.slice(0, 500),
        preview: {
          kind: 'command',
          command: `${parsed.data.reason == null ? '' : `${parsed.data.reason}\n`}Codex asks for ${wanted}`,
          cwd,
        },
      },
    };
  }
  if (method === OTHER_METHODS.elicitation) {
    const parsed = elicitationSchema.safeParse(params);
    if (!parsed.success) return null;
    const required = new Set(parsed.data.requestedSchema.required ?? []);
    const fields = Object.entries(parsed.data.requestedSchema.properties)
      .slice(0, 32)
      .map(([name, schema]) => formFieldOf(name, schema, required.has(name)));
    if (fields.length === 0 || fields.some((field) => field === null)) return null;
    return {
      toolCallId: `elicitation-${String(requestId)}`,
      toolName: CODEX_ELICITATION_TOOL,
      input: { server: parsed.data.serverName, message: parsed.data.message },
      request: {
        kind: 'form',
        title: `${parsed.data.serverName} asks`.slice(0, 200),
        ...(parsed.data.message.trim() === '' ? {} : { description: parsed.data.message.trim().slice(0, 2000) }),
        fields: fields.filter((field): field is FormField => field !== null),
      },
    };
  }
  return null;
}

/** Codex's response to a bridged request, from the person's answer (null: an approval allowed). */
export function otherResponse(
  method: string,
  params: unknown,
  output: Readonly<Record<string, unknown>> | null,
  forSession: boolean,
): unknown {
  if (method === OTHER_METHODS.permissionsApproval) {
    const parsed = permissionsApprovalSchema.safeParse(params);
    if (output !== null || !parsed.success) return { permissions: {}, scope: 'turn' };
    const { network, fileSystem } = parsed.data.permissions;
    return {
      permissions: { ...(network == null ? {} : { network }), ...(fileSystem == null ? {} : { fileSystem }) },
      scope: forSession ? 'session' : 'turn',
    };
  }
  if (output?.action === 'accept' && typeof output.values === 'object' && output.values !== null) {
    return { action: 'accept', content: output.values, _meta: null };
  }
  return { action: output?.action === 'cancel' ? 'cancel' : 'decline', content: null, _meta: null };
}

/** What Codex is answered for a request Cairn does not show the person. */
export function declineResponse(method: string): unknown {
  if (method === OTHER_METHODS.elicitation) return { action: 'decline', content: null, _meta: null };
  if (method === OTHER_METHODS.permissionsApproval) return { permissions: {}, scope: 'turn' };
  if (method === OTHER_METHODS.dynamicToolCall) {
    return {
      contentItems: [
        { type: 'inputText', text: 'Cairn does not run dynamic tools for Codex; this tool call was declined.' },
      ],
      success: false,
    };
  }
  return { decision: 'decline' };
}

function describePermissions(permissions: z.infer<typeof permissionsApprovalSchema>['permissions']): string {
  const parts: string[] = [];
  if (permissions.network?.enabled === true) parts.push('network access');
  const write = permissions.fileSystem?.write ?? [];
  const read = permissions.fileSystem?.read ?? [];
  if (write.length > 0) parts.push(`write access to ${write.join(', ')}`);
  if (read.length > 0) parts.push(`read access to ${read.join(', ')}`);
  return parts.length === 0 ? 'more permissions' : parts.join('; ');
}

function formFieldOf(name: string, schema: z.infer<typeof primitiveSchema>, required: boolean): FormField | null {
  const id = name.replace(/[^A-Za-z0-9_.-]/g, '_').slice(0, 64);
  if (id === '' || id !== name) return null; // the answer goes back under the same name
  const common = {
    id,
    label: (schema.title?.trim() || name).slice(0, 200),
    required,
    ...(schema.description === undefined ? {} : { help: schema.description.slice(0, 500) }),
  };
  if (schema.type === 'boolean') return { ...common, type: 'boolean' };
  if (schema.type === 'number' || schema.type === 'integer') {
    return {
      ...common,
      type: schema.type,
      ...(schema.minimum === undefined ? {} : { minimum: schema.minimum }),
      ...(schema.maximum === undefined ? {} : { maximum: schema.maximum }),
    };
  }
  if (schema.enum !== undefined && schema.enum.length > 0) {
    if (schema.enum.some((value) => !/^[A-Za-z0-9_.-]{1,64}$/.test(value))) return null;
    return {
      ...common,
      type: 'single_select',
      options: schema.enum
        .slice(0, 50)
        .map((value, at) => ({ value, label: (schema.enumNames?.[at] ?? value).slice(0, 200) })),
    };
  }
  const format =
    schema.format === 'email' || schema.format === 'uri' || schema.format === 'date' || schema.format === 'date-time'
      ? schema.format
      : undefined;
  return { ...common, type: 'string', ...(format === undefined ? {} : { format }) };
}
