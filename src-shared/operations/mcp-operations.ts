import { z } from 'zod';
import type { McpPromptInfo, McpResourceInfo, McpServerRecord, McpSessionServer, McpTestResult } from '../mcp-model';
import { wellFormedString } from '../well-formed-string';
import { defineOperation } from './define-operation';
import { id } from './fields';

const name = wellFormedString().trim().min(1, 'A server needs a name').max(60);
const command = wellFormedString().trim().min(1, 'Give the command that starts the server').max(4096);
const arg = wellFormedString().max(4096);
const cwd = wellFormedString().trim().min(1).max(4096);
const url = wellFormedString()
  .trim()
  .max(2000)
  .refine((value) => {
    try {
      const parsed = new URL(value);
      return (
        (parsed.protocol === 'http:' || parsed.protocol === 'https:') &&
        parsed.username === '' &&
        parsed.password === ''
      );
    } catch {
      return false;
    }
  }, 'Use an http:// or https:// address without a user name or password (put credentials in a secret header)');
const settingName = (what: string) =>
  wellFormedString()
    .trim()
    .min(1, `A ${what} needs a name`)
    .max(200)
    .regex(/^[A-Za-z0-9_.-]+$/, `A ${what} name uses letters, digits and _ . - only`);
/** A secret without a value keeps the one stored (on update); a plain setting needs its value. */
const setting = (what: string) =>
  z
    .strictObject({ name: settingName(what), secret: z.boolean(), value: wellFormedString().max(8000).optional() })
    .refine((entry) => entry.secret || entry.value !== undefined, `Give the ${what}'s value`);
const settings = (what: string) =>
  z
    .array(setting(what))
    .max(50)
    .refine(
      (entries) => new Set(entries.map((entry) => entry.name)).size === entries.length,
      `Each ${what} name appears once`,
    );
const revision = z.number().int().min(0);

const serverFields = {
  command: command.optional(),
  args: z.array(arg).max(100).optional(),
  cwd: cwd.nullable().optional(),
  env: settings('environment variable').optional(),
  url: url.optional(),
  headers: settings('header').optional(),
};

const uri = wellFormedString().min(1).max(4096);
const promptName = wellFormedString().min(1).max(200);

export const mcpOperations = {
  'mcp.server.list': defineOperation<{ servers: readonly McpServerRecord[] }>()({
    mode: 'query',
    input: z.strictObject({}),
    errors: [],
  }),
  'mcp.server.create': defineOperation<{ server: McpServerRecord }>()({
    mode: 'command',
    input: z
      .strictObject({ name, transport: z.enum(['stdio', 'http']), enabled: z.boolean().optional(), ...serverFields })
      .refine((input) => input.transport !== 'stdio' || input.command !== undefined, {
        message: 'A stdio server needs a command',
        path: ['command'],
      })
      .refine((input) => input.transport !== 'http' || input.url !== undefined, {
        message: 'A Streamable HTTP server needs a URL',
        path: ['url'],
      }),
    errors: ['invalid_input'],
  }),
  'mcp.server.update': defineOperation<{ server: McpServerRecord }>()({
    mode: 'command',
    input: z.strictObject({ serverId: id, expectedRevision: revision, name: name.optional(), ...serverFields }),
    errors: ['not_found', 'revision_conflict', 'invalid_input'],
  }),
  'mcp.server.enable': defineOperation<{ server: McpServerRecord }>()({
    mode: 'command',
    input: z.strictObject({ serverId: id, expectedRevision: revision.optional() }),
    errors: ['not_found', 'revision_conflict'],
  }),
  'mcp.server.disable': defineOperation<{ server: McpServerRecord }>()({
    mode: 'command',
    input: z.strictObject({ serverId: id, expectedRevision: revision.optional() }),
    errors: ['not_found', 'revision_conflict'],
  }),
  'mcp.server.remove': defineOperation<{ serverId: string; removed: true }>()({
    mode: 'command',
    input: z.strictObject({ serverId: id, expectedRevision: revision.optional() }),
    errors: ['not_found', 'revision_conflict'],
  }),
  'mcp.server.test': defineOperation<McpTestResult>()({
    mode: 'query',
    input: z.strictObject({ serverId: id }),
    errors: ['not_found'],
  }),
  'mcp.session.servers': defineOperation<{ sessionId: string; servers: readonly McpSessionServer[] }>()({
    mode: 'query',
    input: z.strictObject({ sessionId: id }),
    errors: ['not_found'],
  }),
  /** The prompts and resources of the session's servers (connecting them first). */
  'mcp.session.catalog': defineOperation<{
    sessionId: string;
    prompts: readonly McpPromptInfo[];
    resources: readonly McpResourceInfo[];
  }>()({
    mode: 'query',
    input: z.strictObject({ sessionId: id }),
    errors: ['not_found'],
  }),
  /** A prompt's text with its arguments filled in, for the composer. */
  'mcp.prompt.get': defineOperation<{ text: string }>()({
    mode: 'query',
    input: z.strictObject({
      sessionId: id,
      serverId: id,
      name: promptName,
      arguments: z.record(promptName, wellFormedString().max(8000)).optional(),
    }),
    errors: ['not_found', 'operation_unavailable'],
  }),
  /** A resource's text, to attach to a message. */
  'mcp.resource.read': defineOperation<{ uri: string; mimeType: string | null; text: string }>()({
    mode: 'query',
    input: z.strictObject({ sessionId: id, serverId: id, uri }),
    errors: ['not_found', 'operation_unavailable'],
  }),
  'mcp.session.setServer': defineOperation<{ sessionId: string; servers: readonly McpSessionServer[] }>()({
    mode: 'command',
    input: z.strictObject({ sessionId: id, serverId: id, on: z.boolean() }),
    errors: ['not_found'],
  }),
};
