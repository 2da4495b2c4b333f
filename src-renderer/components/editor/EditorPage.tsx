import { useEffect, useState } from 'react';
import '../../styles/editor.css';
import type { HostInfo } from '../../../src-shared/model';
import { useAppStore } from '../../state/store-context';
import { CopyButton } from '../CopyButton';
import { Spinner } from '../icons';
import { acpCommandLine, zedSettingsSnippet } from './editor-setup';

/**
 * Settings → Editors (docs/acp.md, "Cairn as an ACP agent"): the exact command an editor starts to use
 * Cairn's agent through the Agent Client Protocol, and Zed's settings for it, each to copy.
 */
export function EditorPage() {
  const link = useAppStore((state) => state.hostLink);
  const [info, setInfo] = useState<HostInfo | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    void link.invoke('host.info', {}).then((outcome) => {
      if (outcome.ok) setInfo(outcome.result);
      else setProblem(outcome.error.message);
    });
  }, [link]);

  if (info === null) {
    return problem === null ? (
      <div className="settings-loading">
        <Spinner label="Loading" />
      </div>
    ) : (
      <p className="form-notice tone-error">{problem}</p>
    );
  }
  return (
    <div className="editor-page" data-testid="editor-settings">
      <section className="settings-section" aria-labelledby="editor-heading">
        <h4 id="editor-heading">Use Cairn from your editor</h4>
        <p className="settings-note">
          Editors that speak the Agent Client Protocol (Zed, JetBrains IDEs, Neovim plugins, the <code>acpx</code>{' '}
          command) can use Cairn’s agent. Each conversation there is a session here, with its folder as the workspace:
          it shows in this window, keeps its history across restarts, and its approvals can be answered in either place.
        </p>
        {info.acpLauncher === null ? (
          <p className="settings-note" data-testid="editor-no-launcher">
            This Cairn does not run from a checkout of its source, so it has no <code>cairn acp</code> command to offer.
            Run Cairn from a checkout (see the README) to use it from an editor.
          </p>
        ) : (
          <EditorCommands launcher={info.acpLauncher} dataDir={info.dataDir} />
        )}
      </section>
    </div>
  );
}

function EditorCommands({ launcher, dataDir }: { launcher: string; dataDir: string }) {
  const command = acpCommandLine(launcher, dataDir);
  const snippet = zedSettingsSnippet(launcher, dataDir);
  return (
    <>
      <h5 className="editor-step">The command</h5>
      <p className="settings-note">
        Give your editor this command for a custom ACP agent. It works from any folder, finds this Cairn through its
        data directory, and starts Cairn in the background when it is not running.
      </p>
      <CopyableBlock label="The cairn acp command" text={command} testId="editor-command" />
      <h5 className="editor-step">Zed</h5>
      <p className="settings-note">
        Add this to Zed’s <code>settings.json</code> (Zed → Settings → Open Settings), then pick Cairn in the agent
        panel’s menu of external agents.
      </p>
      <CopyableBlock label="Zed settings" text={snippet} testId="editor-zed-snippet" />
    </>
  );
}

function CopyableBlock({ label, text, testId }: { label: string; text: string; testId: string }) {
  return (
    <div className="code-block editor-code" role="group" aria-label={label}>
      <div className="code-block-header">
        <span className="editor-code-label">{label}</span>
        <CopyButton getText={() => text} />
      </div>
      <pre>
        <code data-testid={testId}>{text}</code>
      </pre>
    </div>
  );
}
