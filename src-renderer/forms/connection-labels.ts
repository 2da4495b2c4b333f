import type { AcpPresetKind, ConnectionRecord, ProviderType } from '../../src-shared/connection-model';

/**
 * What the app calls each kind of connection and each ACP agent: the few words the sidebar, the model
 * picker and the first-run screen show (the connection form, with its checks, loads with Settings).
 */
export const PROVIDER_LABELS: Readonly<Record<ProviderType, string>> = {
  openai: 'OpenAI',
  anthropic: 'Anthropic',
  ollama: 'Ollama',
  openai_compatible: 'OpenAI-compatible',
  codex: 'Codex (app-server)',
  acp: 'ACP agent',
};

export const ACP_AGENT_LABELS: Readonly<Record<AcpPresetKind | 'custom', string>> = {
  claude: 'Claude',
  gemini: 'Gemini CLI',
  opencode: 'OpenCode',
  custom: 'Custom',
};

/** What an ACP connection runs, in a few words: the agent Cairn knows, or the custom program's name. */
export function acpAgentLabel(connection: ConnectionRecord): string {
  const agent = connection.acpAgent;
  if (agent === null) return PROVIDER_LABELS.acp;
  if (agent.preset !== undefined)
    return `${ACP_AGENT_LABELS[agent.preset.kind]} agent${agent.preset.model === null ? '' : ` (${agent.preset.model})`}`;
  return agent.command.split(/[\\/]/).at(-1) ?? agent.command;
}

export function providerLabel(providerType: ConnectionRecord['providerType']): string {
  return providerType === 'scripted' ? 'Built in' : PROVIDER_LABELS[providerType];
}
