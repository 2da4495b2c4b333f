import type {
  AcpPresetKind,
  ConnectionRecord,
  ConnectionVerdict,
  ProviderType,
} from '../../src-shared/connection-model';
import {
  DEFAULT_FIRST_TOKEN_TIMEOUT_SECONDS,
  DEFAULT_IDLE_TIMEOUT_SECONDS,
  TIMEOUT_SECONDS_RANGE,
} from '../../src-shared/connection-model';
import type { OperationInput } from '../../src-shared/operations';
import { formatCommandLine, formatEnvLines, parseCommandLine, parseEnvLines } from './acp-command';
import { ACP_AGENT_LABELS, PROVIDER_LABELS } from './connection-labels';

/** The add/edit connection form: what the fields hold, their checks, and the operation input they make. */
export interface ConnectionDraft {
  readonly name: string;
  readonly providerType: ProviderType;
  readonly baseUrl: string;
  /** A new key to store; empty leaves the stored one as it is. */
  readonly apiKey: string;
  /** Seconds, as typed. */
  readonly firstTokenTimeout: string;
  readonly idleTimeout: string;
  /** A Codex connection's codex binary, as typed; empty: found automatically. */
  readonly codexBinary: string;
  /** An ACP connection's agent command line, as typed (program and arguments). */
  readonly acpCommand: string;
  /** An ACP connection's extra environment, one NAME=value a line. */
  readonly acpEnv: string;
  /** Folders an ACP agent may write inside the sandbox (Auto), one absolute path a line. */
  readonly acpWritable: string;
  /** Which agent an ACP connection runs: one Cairn knows (its program found by Cairn), or a custom command line. */
  readonly acpAgentKind: AcpPresetKind | 'custom';
  /** The model a preset agent is told to use, as typed; empty: the agent's default. */
  readonly acpModel: string;
}

interface AcpAgentChoice {
  readonly label: string;
  readonly blurb: string;
  readonly baseUrlHelp: string;
  readonly keyHelp: string;
  /** Whether the agent cannot work without a model and a base URL (an OpenAI-compatible server). */
  readonly needsServer: boolean;
}

/** The agents the ACP form offers; the key and base URL fields feed each its own variables. */
export const ACP_AGENT_CHOICES: Readonly<Record<AcpPresetKind | 'custom', AcpAgentChoice>> = {
  claude: {
    label: ACP_AGENT_LABELS.claude,
    blurb: 'Claude Code’s agent (Claude Agent SDK), with an Anthropic API key',
    baseUrlHelp:
      'Empty for Anthropic; or a server that speaks the Anthropic Messages API (given to the agent as ANTHROPIC_BASE_URL).',
    keyHelp: 'An Anthropic API key, given to the agent as ANTHROPIC_API_KEY.',
    needsServer: false,
  },
  gemini: {
    label: ACP_AGENT_LABELS.gemini,
    blurb: 'Google’s Gemini CLI, with a Gemini API key',
    baseUrlHelp: 'Empty for Google; or another Gemini API address (GOOGLE_GEMINI_BASE_URL).',
    keyHelp: 'A Gemini API key, given to the agent as GEMINI_API_KEY.',
    needsServer: false,
  },
  opencode: {
    label: ACP_AGENT_LABELS.opencode,
    blurb: 'OpenCode, with any OpenAI-compatible server',
    baseUrlHelp: 'The OpenAI-compatible server OpenCode uses, usually ending in /v1.',
    keyHelp: 'The server’s key, if it asks for one.',
    needsServer: true,
  },
  custom: {
    label: ACP_AGENT_LABELS.custom,
    blurb: 'Any program that speaks ACP on stdio',
    baseUrlHelp: '',
    keyHelp: '',
    needsServer: false,
  },
};

export type ConnectionField =
  | 'name'
  | 'baseUrl'
  | 'apiKey'
  | 'firstTokenTimeout'
  | 'idleTimeout'
  | 'codexBinary'
  | 'acpCommand'
  | 'acpEnv'
  | 'acpWritable'
  | 'acpModel';
export type ConnectionProblems = Partial<Record<ConnectionField, string>>;

interface ProviderInfo {
  readonly label: string;
  /** What the provider's own address is, shown as the base URL's placeholder. */
  readonly defaultBaseUrl: string | null;
  readonly keyNeeded: 'required' | 'optional' | 'none';
  readonly blurb: string;
  /** What the base URL and key fields mean for this kind, where the usual words do not fit. */
  readonly baseUrlHelp?: string;
  readonly keyHelp?: string;
}

export const PROVIDERS: Readonly<Record<ProviderType, ProviderInfo>> = {
  openai: {
    label: PROVIDER_LABELS.openai,
    defaultBaseUrl: 'https://api.openai.com/v1',
    keyNeeded: 'required',
    blurb: 'GPT models with an OpenAI API key',
  },
  anthropic: {
    label: PROVIDER_LABELS.anthropic,
    defaultBaseUrl: 'https://api.anthropic.com/v1',
    keyNeeded: 'required',
    blurb: 'Claude models with an Anthropic API key',
  },
  ollama: {
    label: PROVIDER_LABELS.ollama,
    defaultBaseUrl: 'http://127.0.0.1:11434',
    keyNeeded: 'none',
    blurb: 'Models running on this machine',
  },
  openai_compatible: {
    label: PROVIDER_LABELS.openai_compatible,
    defaultBaseUrl: null,
    keyNeeded: 'optional',
    blurb: 'LM Studio, llama.cpp, vLLM, OpenRouter…',
  },
  codex: {
    label: PROVIDER_LABELS.codex,
    defaultBaseUrl: null,
    keyNeeded: 'optional',
    blurb: 'OpenAI Codex runs the whole turn: its login, an OpenAI key, or a Responses base URL',
    baseUrlHelp: 'Empty for OpenAI; or a server that speaks the OpenAI Responses API, ending in /v1.',
    keyHelp: 'An OpenAI key, passed to Codex only through its environment. Leave both empty to use Codex’s own login.',
  },
  acp: {
    label: PROVIDER_LABELS.acp,
    defaultBaseUrl: null,
    keyNeeded: 'none',
    blurb: 'Claude, Gemini CLI, OpenCode, or any agent that speaks the Agent Client Protocol on stdio',
  },
};

export function emptyDraft(providerType: ProviderType = 'openai'): ConnectionDraft {
  return {
    name: PROVIDERS[providerType].label,
    providerType,
    baseUrl: '',
    apiKey: '',
    firstTokenTimeout: String(DEFAULT_FIRST_TOKEN_TIMEOUT_SECONDS),
    idleTimeout: String(DEFAULT_IDLE_TIMEOUT_SECONDS),
    codexBinary: '',
    acpCommand: '',
    acpEnv: '',
    acpWritable: '',
    acpAgentKind: 'claude',
    acpModel: '',
  };
}

export function draftOf(connection: ConnectionRecord): ConnectionDraft {
  return {
    name: connection.name,
    providerType: connection.providerType === 'scripted' ? 'openai_compatible' : connection.providerType,
    baseUrl: connection.baseUrl ?? '',
    apiKey: '',
    firstTokenTimeout: String(connection.firstTokenTimeoutSeconds),
    idleTimeout: String(connection.idleTimeoutSeconds),
    codexBinary: connection.codexBinary ?? '',
    acpCommand:
      connection.acpAgent === null ? '' : formatCommandLine(connection.acpAgent.command, connection.acpAgent.args),
    acpEnv: connection.acpAgent === null ? '' : formatEnvLines(connection.acpAgent.env),
    acpWritable: (connection.acpAgent?.writableFolders ?? []).join('\n'),
    acpAgentKind: connection.acpAgent?.preset?.kind ?? 'custom',
    acpModel: connection.acpAgent?.preset?.model ?? '',
  };
}

/** Switching provider on a new connection: a name still equal to the old provider's label follows along. */
export function withProvider(draft: ConnectionDraft, providerType: ProviderType): ConnectionDraft {
  const name =
    draft.name.trim() === '' || draft.name === PROVIDERS[draft.providerType].label
      ? PROVIDERS[providerType].label
      : draft.name;
  const next = { ...draft, providerType, name };
  return providerType === 'acp' && name === PROVIDERS.acp.label ? withAcpAgent(next, draft.acpAgentKind) : next;
}

/** Picking the agent of a new ACP connection: a name still equal to a label follows along. */
export function withAcpAgent(draft: ConnectionDraft, kind: ConnectionDraft['acpAgentKind']): ConnectionDraft {
  const labels = [PROVIDERS.acp.label, ...Object.values(ACP_AGENT_CHOICES).map((choice) => choice.label)];
  const name = draft.name.trim() === '' || labels.includes(draft.name) ? ACP_AGENT_CHOICES[kind].label : draft.name;
  return { ...draft, acpAgentKind: kind, name };
}

export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/**
 * The host's checks, said next to the field; when adding (`requireKey`), also a key for the providers
 * that cannot work without one. An existing connection's key is its own business (stored or removed).
 */
export function validateConnectionDraft(
  draft: ConnectionDraft,
  { requireKey = false }: { requireKey?: boolean } = {},
): ConnectionProblems {
  const problems: ConnectionProblems = {};
  const name = draft.name.trim();
  if (name === '') problems.name = 'Give the connection a name.';
  else if (name.length > 80) problems.name = 'Use at most 80 characters.';
  const baseUrl = draft.baseUrl.trim();
  if (baseUrl === '') {
    if (draft.providerType === 'openai_compatible')
      problems.baseUrl = 'Enter the server’s address, for example http://127.0.0.1:1234/v1.';
  } else if (!isHttpUrl(baseUrl)) {
    problems.baseUrl = 'Use an http:// or https:// address.';
  }
  const key = draft.apiKey.trim();
  if (key.length > 4000) problems.apiKey = 'That key is too long.';
  else if (key === '' && requireKey && PROVIDERS[draft.providerType].keyNeeded === 'required') {
    problems.apiKey = `${PROVIDERS[draft.providerType].label} needs an API key.`;
  }
  const firstToken = timeoutProblem(draft.firstTokenTimeout);
  if (firstToken !== null) problems.firstTokenTimeout = firstToken;
  const idle = timeoutProblem(draft.idleTimeout);
  if (idle !== null) problems.idleTimeout = idle;
  const codexBinary = draft.codexBinary.trim();
  if (draft.providerType === 'codex' && codexBinary !== '' && !/^(\/|[A-Za-z]:[\\/])/.test(codexBinary)) {
    problems.codexBinary = 'Give the full path, for example /usr/local/bin/codex; or leave it empty.';
  }
  if (
    draft.providerType === 'acp' &&
    draft.acpAgentKind !== 'custom' &&
    ACP_AGENT_CHOICES[draft.acpAgentKind].needsServer
  ) {
    if (baseUrl === '')
      problems.baseUrl = `${ACP_AGENT_CHOICES[draft.acpAgentKind].label} needs the server’s address, for example http://127.0.0.1:1234/v1.`;
    if (draft.acpModel.trim() === '') problems.acpModel = 'Give the model to use (its id on the server).';
  }
  if (draft.providerType === 'acp') {
    const command = draft.acpAgentKind === 'custom' ? parseCommandLine(draft.acpCommand) : null;
    if (command !== null && !command.ok) problems.acpCommand = command.problem;
    const env = parseEnvLines(draft.acpEnv);
    if (!env.ok) problems.acpEnv = env.problem;
    const relative = folderLines(draft.acpWritable).find((folder) => !folder.startsWith('/'));
    if (relative !== undefined) problems.acpWritable = `"${relative}" is not an absolute path: start it with /.`;
  }
  return problems;
}

/** The lines of a list of folders, trimmed, without the empty ones. */
function folderLines(text: string): string[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
}

/** A timeout as the host takes it: whole seconds from 1 to 3600; null when the text is not one. */
export function timeoutSeconds(text: string): number | null {
  const trimmed = text.trim();
  if (!/^\d+$/.test(trimmed)) return null;
  const value = Number(trimmed);
  return value >= TIMEOUT_SECONDS_RANGE.min && value <= TIMEOUT_SECONDS_RANGE.max ? value : null;
}

function timeoutProblem(text: string): string | null {
  if (timeoutSeconds(text) !== null) return null;
  return `Enter whole seconds from ${TIMEOUT_SECONDS_RANGE.min} to ${TIMEOUT_SECONDS_RANGE.max}.`;
}

export function hasProblems(problems: ConnectionProblems): boolean {
  return Object.keys(problems).length > 0;
}

export function createInput(draft: ConnectionDraft): OperationInput<'connection.create'> {
  const baseUrl = draft.baseUrl.trim();
  const apiKey = draft.apiKey.trim();
  const firstTokenTimeoutSeconds = timeoutSeconds(draft.firstTokenTimeout) ?? DEFAULT_FIRST_TOKEN_TIMEOUT_SECONDS;
  const idleTimeoutSeconds = timeoutSeconds(draft.idleTimeout) ?? DEFAULT_IDLE_TIMEOUT_SECONDS;
  const codexBinary = draft.providerType === 'codex' ? draft.codexBinary.trim() : '';
  return {
    name: draft.name.trim(),
    providerType: draft.providerType,
    ...(baseUrl === '' ? {} : { baseUrl }),
    ...(apiKey === '' ? {} : { apiKey }),
    ...(firstTokenTimeoutSeconds === DEFAULT_FIRST_TOKEN_TIMEOUT_SECONDS ? {} : { firstTokenTimeoutSeconds }),
    ...(idleTimeoutSeconds === DEFAULT_IDLE_TIMEOUT_SECONDS ? {} : { idleTimeoutSeconds }),
    ...(codexBinary === '' ? {} : { codexBinary }),
    ...(draft.providerType === 'acp' ? { acpAgent: acpAgentOf(draft) } : {}),
  };
}

/** The agent the draft's fields say: a preset with its model, or a custom command line (checked fields: see `validateConnectionDraft`). */
function acpAgentOf(draft: ConnectionDraft): OperationInput<'connection.create'>['acpAgent'] & object {
  const env = parseEnvLines(draft.acpEnv);
  const envValue = env.ok ? env.value : {};
  const folders = folderLines(draft.acpWritable);
  const writable = folders.length === 0 ? {} : { writableFolders: folders };
  if (draft.acpAgentKind !== 'custom') {
    const model = draft.acpModel.trim();
    return { preset: { kind: draft.acpAgentKind, model: model === '' ? null : model }, env: envValue, ...writable };
  }
  const command = parseCommandLine(draft.acpCommand);
  return {
    command: command.ok ? command.value.command : draft.acpCommand.trim(),
    args: command.ok ? command.value.args : [],
    env: envValue,
    ...writable,
  };
}

/** Whether the draft's agent differs from the stored one. */
function acpAgentChanged(connection: ConnectionRecord, draft: ConnectionDraft): boolean {
  const stored = connection.acpAgent;
  const next = acpAgentOf(draft);
  if (stored === null) return true;
  const folders = (agent: { readonly writableFolders?: readonly string[] }) => agent.writableFolders ?? [];
  if (JSON.stringify(folders(next)) !== JSON.stringify(folders(stored))) return true;
  if ('preset' in next)
    return JSON.stringify([next.preset, next.env]) !== JSON.stringify([stored.preset ?? null, stored.env]);
  const { writableFolders: _folders, ...command } = next;
  return (
    stored.preset !== undefined ||
    JSON.stringify(command) !== JSON.stringify({ command: stored.command, args: stored.args, env: stored.env })
  );
}

/** The connection.update input for what changed in the form (null when nothing did). */
export function updateInput(
  connection: ConnectionRecord,
  draft: ConnectionDraft,
): OperationInput<'connection.update'> | null {
  const name = draft.name.trim();
  const baseUrl = draft.baseUrl.trim();
  const apiKey = draft.apiKey.trim();
  const firstTokenTimeoutSeconds = timeoutSeconds(draft.firstTokenTimeout) ?? connection.firstTokenTimeoutSeconds;
  const idleTimeoutSeconds = timeoutSeconds(draft.idleTimeout) ?? connection.idleTimeoutSeconds;
  const codexBinary = draft.codexBinary.trim();
  const changes = {
    ...(name !== connection.name ? { name } : {}),
    ...(baseUrl !== (connection.baseUrl ?? '') ? { baseUrl: baseUrl === '' ? null : baseUrl } : {}),
    ...(apiKey !== '' ? { apiKey } : {}),
    ...(firstTokenTimeoutSeconds !== connection.firstTokenTimeoutSeconds ? { firstTokenTimeoutSeconds } : {}),
    ...(idleTimeoutSeconds !== connection.idleTimeoutSeconds ? { idleTimeoutSeconds } : {}),
    ...(connection.providerType === 'codex' && codexBinary !== (connection.codexBinary ?? '')
      ? { codexBinary: codexBinary === '' ? null : codexBinary }
      : {}),
    ...(connection.providerType === 'acp' && acpAgentChanged(connection, draft) ? { acpAgent: acpAgentOf(draft) } : {}),
  };
  if (Object.keys(changes).length === 0) return null;
  return { connectionId: connection.connectionId, expectedRevision: connection.revision, ...changes };
}

/**
 * A Test verdict in a few words, and whether it is good news. An agent run as a program (ACP, Codex)
 * has no server: its failure to start is the agent's (the message says how it ended).
 */
export function verdictLabel(
  verdict: ConnectionVerdict,
  providerType?: ConnectionRecord['providerType'],
): { readonly text: string; readonly tone: 'ok' | 'bad' } {
  switch (verdict) {
    case 'ok':
      return { text: 'Works', tone: 'ok' };
    case 'bad_key':
      return { text: 'Key refused', tone: 'bad' };
    case 'unreachable':
      return { text: 'Unreachable', tone: 'bad' };
    case 'model_unknown':
      return { text: 'Model unknown', tone: 'bad' };
    case 'server_error':
      return {
        text: providerType === 'acp' || providerType === 'codex' ? 'Agent failed' : 'Server error',
        tone: 'bad',
      };
  }
}
