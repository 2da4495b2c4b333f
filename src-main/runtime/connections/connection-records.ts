import type {
  AcpAgentCommand,
  AcpAgentPreset,
  ConnectionRecord,
  ModelTarget,
  ProviderType,
} from '../../../src-shared/connection-model';
import {
  agentChoosesModel,
  DEFAULT_FIRST_TOKEN_TIMEOUT_SECONDS,
  DEFAULT_IDLE_TIMEOUT_SECONDS,
  OFFLINE_DEMO_CONNECTION_ID,
  OFFLINE_DEMO_MODEL_ID,
} from '../../../src-shared/connection-model';
import { fail } from '../../../src-shared/errors';
import type { StoredConnection } from '../../storage/connection-store';
import { codexBinaryProblem } from './codex-binary';
import { listPriceOf } from './providers/model-prices';

/** An ACP agent as a request gives it: a custom command line, or a preset whose program the host finds. */
export type AcpAgentInput =
  | AcpAgentCommand
  | {
      readonly preset: AcpAgentPreset;
      readonly env: Readonly<Record<string, string>>;
      readonly writableFolders?: readonly string[];
    };

export interface CreateConnectionRequest {
  readonly name: string;
  readonly providerType: ProviderType;
  readonly baseUrl?: string;
  readonly apiKey?: string;
  readonly enabledModelIds?: readonly string[];
  readonly firstTokenTimeoutSeconds?: number;
  readonly idleTimeoutSeconds?: number;
  readonly codexBinary?: string;
  readonly acpAgent?: AcpAgentInput;
}

export interface UpdateConnectionRequest {
  readonly connectionId: string;
  readonly expectedRevision: number;
  readonly name?: string;
  readonly baseUrl?: string | null;
  readonly apiKey?: string | null;
  readonly enabled?: boolean;
  readonly enabledModelIds?: readonly string[];
  readonly firstTokenTimeoutSeconds?: number;
  readonly idleTimeoutSeconds?: number;
  readonly codexBinary?: string | null;
  readonly acpAgent?: AcpAgentInput;
}

export const OFFLINE_DEMO_TARGET: ModelTarget = {
  connectionId: OFFLINE_DEMO_CONNECTION_ID,
  modelId: OFFLINE_DEMO_MODEL_ID,
};

export const OFFLINE_DEMO_CONNECTION: ConnectionRecord = {
  connectionId: OFFLINE_DEMO_CONNECTION_ID,
  name: 'Offline demo',
  providerType: 'scripted',
  baseUrl: null,
  enabled: true,
  enabledModelIds: [OFFLINE_DEMO_MODEL_ID],
  models: [
    { modelId: OFFLINE_DEMO_MODEL_ID, label: 'Scripted agent', price: listPriceOf(OFFLINE_DEMO_MODEL_ID, 'scripted') },
  ],
  modelsFetchedAt: null,
  hasApiKey: false,
  firstTokenTimeoutSeconds: DEFAULT_FIRST_TOKEN_TIMEOUT_SECONDS,
  idleTimeoutSeconds: DEFAULT_IDLE_TIMEOUT_SECONDS,
  codexBinary: null,
  acpAgent: null,
  lastTest: null,
  builtIn: true,
  revision: 1,
  createdAt: 0,
  updatedAt: 0,
};

/** A stored connection as clients see it: no secret id, whether it has a key, today's prices. */
export function connectionRecordOf(stored: StoredConnection): ConnectionRecord {
  const { secretId, ...rest } = stored;
  // Prices are looked up as the list is read, so a newer price table reaches models fetched long ago.
  const models = rest.models.map((model) => ({ ...model, price: listPriceOf(model.modelId, rest.providerType) }));
  return { ...rest, models, hasApiKey: secretId !== null, builtIn: false };
}

/** Why a codex binary cannot be set on a connection of this kind, or null. */
export function codexBinaryRefusal(providerType: ProviderType, path: string): string | null {
  if (providerType !== 'codex') return 'Only a Codex connection runs a codex binary.';
  return codexBinaryProblem(path);
}

export function missingConnection() {
  return fail('not_found', 'That connection does not exist. It may have been removed.');
}

export function builtInRefusal() {
  return fail('operation_unavailable', 'The Offline demo is built in; it cannot be changed or removed.');
}

export function staleRevision(current: number, expected: number) {
  return fail(
    'revision_conflict',
    `The connections changed since you read them (revision ${current}, you had ${expected}). Reload and try again.`,
  );
}

/** Why `modelId` cannot be the default on this connection, or null: only an agent that chooses its own model goes without one. */
export function defaultModelRefusal(connection: ConnectionRecord, modelId: string | null): string | null {
  if (modelId === null) {
    return agentChoosesModel(connection.providerType)
      ? null
      : `Pick one of ${connection.name}'s models to make it the default (Fetch models, then tick one).`;
  }
  const known =
    connection.models.some((model) => model.modelId === modelId) || connection.enabledModelIds.includes(modelId);
  return known ? null : `${connection.name} has no model "${modelId}". Fetch its models first.`;
}
