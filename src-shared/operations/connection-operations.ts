import { z } from 'zod';
import { wellFormedString } from '../well-formed-string';
import type { ConnectionRecord, ConnectionTestResult, DiscoveredServer, ModelTarget } from '../connection-model';
import { ACP_PRESET_KINDS, PROVIDER_TYPES, TIMEOUT_SECONDS_RANGE } from '../connection-model';
import type { UsageGroup, UsageTotals } from '../usage-model';
import { defineOperation } from './define-operation';
import { id } from './fields';

const name = wellFormedString().trim().min(1, 'A connection needs a name').max(80);
const baseUrl = wellFormedString()
  .trim()
  .max(2000)
  .refine((value) => {
    try {
      const url = new URL(value);
      return url.protocol === 'http:' || url.protocol === 'https:';
    } catch {
      return false;
    }
  }, 'Use an http:// or https:// address')
  .refine(
    (value) => {
      try {
        const url = new URL(value);
        return url.username === '' && url.password === '';
      } catch {
        return true;
      }
    },
    // A key in the address would be stored and sent in clear; the key field seals it.
    {
      message:
        'Leave the user name and API key out of the address: put the key in the API key field, where Cairn keeps it encrypted.',
    },
  );
const apiKey = wellFormedString().trim().min(1).max(4000);
/** The codex binary of a Codex connection: a path on the host (the host checks it is an executable file). */
const codexBinary = wellFormedString().trim().min(1, 'Give the path of the codex binary').max(4096);
/** An ACP agent command: the program (full path or a name on PATH; the host checks it), its arguments and extra environment. */
const acpEnv = z
  .record(wellFormedString().min(1).max(200), wellFormedString().max(10_000))
  .refine((env) => Object.keys(env).length <= 64, 'At most 64 environment variables');
/** A custom agent's command line; or a preset (Claude, Gemini CLI, OpenCode), whose program the host finds and whose key and base URL are the connection's. */
/** Folders the agent may write inside the sandbox (Auto); the host checks none opens the deny list. */
const writableFolders = z.array(wellFormedString().trim().min(1).max(4096)).max(32, 'At most 32 writable folders');
const acpAgent = z.union([
  z.strictObject({
    command: wellFormedString().trim().min(1, 'Give the agent program').max(4096),
    args: z.array(wellFormedString().max(4096)).max(64),
    env: acpEnv,
    writableFolders: writableFolders.optional(),
  }),
  z.strictObject({
    preset: z.strictObject({
      kind: z.enum(ACP_PRESET_KINDS),
      model: wellFormedString().trim().min(1).max(200).nullable(),
    }),
    env: acpEnv,
    writableFolders: writableFolders.optional(),
  }),
]);
const modelId = wellFormedString().trim().min(1).max(200);
const revision = z.number().int().min(0);
const timeoutSeconds = z
  .number()
  .int('Use whole seconds')
  .min(TIMEOUT_SECONDS_RANGE.min, `Allow at least ${TIMEOUT_SECONDS_RANGE.min} second`)
  .max(TIMEOUT_SECONDS_RANGE.max, `Allow at most ${TIMEOUT_SECONDS_RANGE.max} seconds (an hour)`);

export interface ConnectionCatalog {
  readonly connections: readonly ConnectionRecord[];
  readonly defaultTarget: ModelTarget;
  readonly catalogRevision: number;
}

export const connectionOperations = {
  'connection.list': defineOperation<ConnectionCatalog>()({
    mode: 'query',
    input: z.strictObject({}),
    errors: [],
  }),
  'connection.create': defineOperation<{ connection: ConnectionRecord }>()({
    mode: 'command',
    input: z.strictObject({
      name,
      providerType: z.enum(PROVIDER_TYPES),
      baseUrl: baseUrl.optional(),
      apiKey: apiKey.optional(),
      enabledModelIds: z.array(modelId).max(500).optional(),
      firstTokenTimeoutSeconds: timeoutSeconds.optional(),
      idleTimeoutSeconds: timeoutSeconds.optional(),
      codexBinary: codexBinary.optional(),
      /** The agent an ACP connection runs (required for one, refused for any other kind). */
      acpAgent: acpAgent.optional(),
    }),
    errors: ['invalid_input'],
  }),
  'connection.update': defineOperation<{ connection: ConnectionRecord }>()({
    mode: 'command',
    input: z.strictObject({
      connectionId: id,
      expectedRevision: revision,
      name: name.optional(),
      baseUrl: baseUrl.nullable().optional(),
      /** A new key, or null to forget the stored one. */
      apiKey: apiKey.nullable().optional(),
      enabled: z.boolean().optional(),
      enabledModelIds: z.array(modelId).max(500).optional(),
      firstTokenTimeoutSeconds: timeoutSeconds.optional(),
      idleTimeoutSeconds: timeoutSeconds.optional(),
      /** A codex binary for a Codex connection, or null to find it automatically again. */
      codexBinary: codexBinary.nullable().optional(),
      /** A new agent command for an ACP connection (replaces the whole command, arguments and environment). */
      acpAgent: acpAgent.optional(),
    }),
    errors: ['not_found', 'revision_conflict', 'operation_unavailable', 'invalid_input'],
  }),
  'connection.remove': defineOperation<{ connectionId: string; removed: true }>()({
    mode: 'command',
    input: z.strictObject({ connectionId: id, expectedRevision: revision.optional() }),
    errors: ['not_found', 'revision_conflict', 'operation_unavailable'],
  }),
  /** Keeps the result on the connection (`lastTest`), so it is a command. */
  'connection.test': defineOperation<ConnectionTestResult>()({
    mode: 'command',
    input: z.strictObject({ connectionId: id, modelId: modelId.optional() }),
    errors: ['not_found'],
  }),
  /** `notice` says when the list is not the provider's own (a Codex connection falling back to the models Cairn knows). */
  'connection.models.fetch': defineOperation<{ connection: ConnectionRecord; notice: string | null }>()({
    mode: 'command',
    input: z.strictObject({ connectionId: id }),
    errors: ['not_found', 'provider_error'],
  }),
  'connection.setDefault': defineOperation<{ defaultTarget: ModelTarget; catalogRevision: number }>()({
    mode: 'command',
    input: z.strictObject({
      connectionId: id,
      modelId: modelId.nullable(),
      expectedCatalogRevision: revision.optional(),
    }),
    errors: ['not_found', 'revision_conflict', 'invalid_input'],
  }),
  'connection.discover': defineOperation<{ servers: readonly DiscoveredServer[] }>()({
    mode: 'query',
    input: z.strictObject({}),
    errors: [],
  }),
  'usage.summary': defineOperation<{ totals: UsageTotals; groups: readonly UsageGroup[] }>()({
    mode: 'query',
    input: z.strictObject({
      by: z.enum(['session', 'day', 'model']),
      sessionId: id.optional(),
      from: z.number().int().min(0).optional(),
      to: z.number().int().min(0).optional(),
    }),
    errors: ['not_found'],
  }),
} as const;
