import { lazy, Suspense } from 'react';
import { ACP_AGENT_CHOICES, withAcpAgent } from '../../forms/connection-form';
import { retryingImport } from '../../platform/retrying-import';
import { AcpAgentInstall } from '../AcpAgentInstall';
import { ChoiceCards } from '../ChoiceCards';
import { TextField } from '../FieldFrame';
import type { ConnectionFieldsProps } from './connection-fields-props';
import { ApiKeyField, BaseUrlField, NameField } from './EndpointFields';

/** The ACP registry's agents: loaded with the first Add connection of an ACP agent. */
const AcpRegistryAgents = lazy(() =>
  retryingImport(() => import('./AcpRegistryAgents')).then((module) => ({ default: module.AcpRegistryAgents })),
);

const AGENT_KINDS = (['claude', 'gemini', 'opencode', 'custom'] as const).map((kind) => ({
  value: kind,
  label: ACP_AGENT_CHOICES[kind].label,
  blurb: ACP_AGENT_CHOICES[kind].blurb,
}));

/**
 * An ACP connection's fields: which agent (one Cairn knows, whose key, base URL and model feed its own
 * variables, or a custom command line), its name, and extra environment.
 */
export function AcpFields(props: ConnectionFieldsProps) {
  const { formId, draft, shown, connection, change, touch, reshape } = props;
  const preset = draft.acpAgentKind === 'custom' ? null : ACP_AGENT_CHOICES[draft.acpAgentKind];
  return (
    <>
      <ChoiceCards
        legend="Agent"
        name={`${formId}-acp-agent`}
        choices={AGENT_KINDS}
        checked={draft.acpAgentKind}
        // Adding, a choice fills in that agent's name; editing, the name stays.
        onChoose={(kind) =>
          reshape((current) => (connection === null ? withAcpAgent(current, kind) : { ...current, acpAgentKind: kind }))
        }
      />
      {connection === null ? (
        <Suspense fallback={null}>
          <AcpRegistryAgents
            choosePreset={(kind) => reshape((current) => withAcpAgent(current, kind))}
            chooseCommand={(name, acpCommand) =>
              reshape((current) => ({ ...withAcpAgent(current, 'custom'), name, acpCommand }))
            }
          />
        </Suspense>
      ) : null}
      {draft.acpAgentKind !== 'custom' ? <AcpAgentInstall kind={draft.acpAgentKind} /> : null}
      <NameField {...props} />
      {preset === null ? null : (
        <>
          <BaseUrlField {...props} words={preset} />
          <ApiKeyField {...props} words={preset} />
          <TextField
            controlId={`${formId}-acp-model`}
            label="Model"
            required={preset.needsServer}
            help={
              preset.needsServer ? 'The model’s id on that server.' : 'Leave empty for the agent’s own default model.'
            }
            error={shown.acpModel}
            type="text"
            spellCheck={false}
            autoComplete="off"
            value={draft.acpModel}
            onChange={(acpModel) => change({ acpModel })}
            onBlur={() => touch('acpModel')}
          />
        </>
      )}
      {preset === null && connection?.hasApiKey === true ? <ApiKeyField {...props} /> : null}
      {preset !== null ? null : (
        <TextField
          controlId={`${formId}-acp-command`}
          label="Agent command"
          required
          help="The program that speaks ACP on its stdin and stdout, and its arguments: a full path or a name on PATH, for example gemini --acp. Quote an argument with spaces. Checked when you save; Test starts it and shows its name, version and what it can do."
          error={shown.acpCommand}
          type="text"
          spellCheck={false}
          autoComplete="off"
          placeholder="/usr/local/bin/my-agent --acp"
          value={draft.acpCommand}
          onChange={(acpCommand) => change({ acpCommand })}
          onBlur={() => touch('acpCommand')}
        />
      )}
      <TextField
        controlId={`${formId}-acp-env`}
        label="Environment"
        help="Extra environment for the agent, one NAME=value a line. Stored with the connection in Cairn’s database, not encrypted."
        error={shown.acpEnv}
        rows={3}
        controlClassName="input textarea"
        spellCheck={false}
        autoComplete="off"
        placeholder="Optional: NAME=value, one a line"
        value={draft.acpEnv}
        onChange={(acpEnv) => change({ acpEnv })}
        onBlur={() => touch('acpEnv')}
      />
      <TextField
        controlId={`${formId}-acp-writable`}
        label="Writable folders in Auto"
        help="Folders the agent may also write when its session runs in Auto, inside the sandbox: one absolute path a line. None may open what the sandbox hides (~/.ssh, Cairn’s data folder, …)."
        error={shown.acpWritable}
        rows={3}
        controlClassName="input textarea"
        spellCheck={false}
        autoComplete="off"
        placeholder="Optional: /home/you/.my-agent"
        value={draft.acpWritable}
        onChange={(acpWritable) => change({ acpWritable })}
        onBlur={() => touch('acpWritable')}
      />
    </>
  );
}
