import { useEffect } from 'react';
import type { AcpRegistryAgent, AcpRegistryList } from '../../../src-shared/acp-registry-model';
import type { AcpPresetKind } from '../../../src-shared/connection-model';
import { ACP_AGENT_CHOICES } from '../../forms/connection-form';
import { useAppStore, useStoreApi } from '../../state/store-context';
import { AcpAgentInstall } from '../AcpAgentInstall';
import { Spinner } from '../icons';

export interface AcpRegistryAgentsProps {
  /** An agent Cairn has a preset for: its card is chosen. */
  choosePreset(kind: AcpPresetKind): void;
  /** An agent started by a command line: a custom agent with that command. */
  chooseCommand(name: string, command: string): void;
}

/**
 * The ACP registry's agents, for Add connection: each with its version, licence, description and
 * repository, and what Cairn can do with it — set it up as a preset, install it with npm (then use its
 * program as a custom command), or, for a binary or a Python (uvx) agent, say how to get it and let the
 * person use a custom command. Says where the list came from and as of when; Refresh fetches it again.
 */
export function AcpRegistryAgents(props: AcpRegistryAgentsProps) {
  const store = useStoreApi();
  const registry = useAppStore((state) => state.acpRegistry);
  const refreshing = useAppStore((state) => state.acpRegistryRefreshing);
  useEffect(() => {
    void store.getState().loadAcpRegistry(false);
  }, [store]);
  if (registry === null) return null;
  return (
    <details className="acp-registry" data-testid="acp-registry">
      <summary className="acp-registry-summary">Browse {registry.agents.length} agents from the ACP registry</summary>
      <div className="acp-registry-source">
        <span data-testid="acp-registry-source" data-source={registry.source}>
          {sourceText(registry)}
        </span>
        <button
          type="button"
          className="button button-small button-quiet"
          disabled={refreshing}
          onClick={() => void store.getState().loadAcpRegistry(true)}
        >
          {refreshing ? <Spinner /> : null}
          Refresh
        </button>
      </div>
      {registry.refreshError === null ? null : (
        <p className="acp-registry-error" role="status" data-testid="acp-registry-error">
          {registry.refreshError}. The list shown is the one Cairn had.
        </p>
      )}
      <ul className="acp-registry-list">
        {registry.agents.map((agent) => (
          <RegistryAgentRow key={agent.id} agent={agent} {...props} />
        ))}
      </ul>
    </details>
  );
}

function RegistryAgentRow({
  agent,
  choosePreset,
  chooseCommand,
}: { agent: AcpRegistryAgent } & AcpRegistryAgentsProps) {
  const install = useAppStore((state) => state.acpInstalls?.[`registry:${agent.id}`]);
  return (
    <li className="acp-registry-agent" data-testid="acp-registry-agent" data-agent={agent.id}>
      <div className="acp-registry-agent-head">
        <span className="acp-registry-agent-name">{agent.name}</span>
        <span className="acp-registry-agent-meta">
          {agent.version}
          {agent.license === null ? '' : ` · ${agent.license}`}
        </span>
        {agent.repository === null ? null : (
          <a className="acp-registry-agent-link" href={agent.repository} target="_blank" rel="noopener noreferrer">
            Repository
          </a>
        )}
      </div>
      <p className="acp-registry-agent-description">{agent.description}</p>
      <RegistryAgentAction
        agent={agent}
        installedCommand={install?.command ?? null}
        {...{ choosePreset, chooseCommand }}
      />
    </li>
  );
}

function RegistryAgentAction({
  agent,
  installedCommand,
  choosePreset,
  chooseCommand,
}: { agent: AcpRegistryAgent; installedCommand: string | null } & AcpRegistryAgentsProps) {
  const { install } = agent;
  switch (install.kind) {
    case 'preset':
      return (
        <p className="acp-registry-agent-action">
          <button type="button" className="button button-small" onClick={() => choosePreset(install.preset)}>
            Use {ACP_AGENT_CHOICES[install.preset].label}
          </button>
          <span className="acp-install-help">Cairn sets it up itself, with the version it is tested with.</span>
        </p>
      );
    case 'npm':
      return (
        <div className="acp-registry-agent-action">
          <AcpAgentInstall kind={`registry:${agent.id}`} testId="acp-registry-install" />
          {installedCommand === null ? null : (
            <p className="acp-install-line">
              <button
                type="button"
                className="button button-small"
                onClick={() => chooseCommand(agent.name, installedCommand)}
              >
                Use {agent.name}
              </button>
              <span className="acp-install-help">as a custom agent with its installed program.</span>
            </p>
          )}
        </div>
      );
    case 'manual':
      return (
        <p className="acp-registry-agent-action">
          <span className="acp-install-help" data-testid="acp-registry-manual">
            {install.distribution === 'binary'
              ? 'Cairn cannot install downloaded programs yet: get it from its release'
              : 'Cairn cannot install Python (uvx) agents yet: it needs uv'}
            {install.source === null ? (
              '. '
            ) : (
              <>
                {' '}
                (
                <a href={install.source} target="_blank" rel="noopener noreferrer">
                  {install.distribution === 'binary' ? 'download' : 'PyPI'}
                </a>
                ).{' '}
              </>
            )}
            Then use it as a custom command.
          </span>
          <button
            type="button"
            className="button button-small button-quiet"
            onClick={() => chooseCommand(agent.name, install.suggestedCommand)}
          >
            Use a custom command
          </button>
        </p>
      );
  }
}

function sourceText(registry: AcpRegistryList): string {
  const date = new Date(registry.asOf).toLocaleDateString(undefined, {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
  });
  const dropped =
    registry.dropped === 0
      ? ''
      : ` (${registry.dropped} malformed ${registry.dropped === 1 ? 'entry' : 'entries'} left out)`;
  return registry.source === 'snapshot'
    ? `Agent list from ${date}, shipped with Cairn${dropped}`
    : `Agent list from ${date}${dropped}`;
}
