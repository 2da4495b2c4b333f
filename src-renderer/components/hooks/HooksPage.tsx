import { useCallback, useEffect, useState } from 'react';
import '../../styles/hooks.css';
import type { Outcome } from '../../../src-shared/errors';
import type { HookEntry, HookList, HookTestResult } from '../../../src-shared/hook-model';
import { useAppStore } from '../../state/store-context';
import { EnabledSwitch } from '../EnabledSwitch';

const SOURCE_LABELS: Record<HookEntry['sourceKind'], string> = {
  global: 'Cairn',
  claude_user: 'Claude Code (yours)',
  workspace: 'Workspace',
};

/**
 * Settings → Hooks (docs/hooks.md): the hooks in effect for the open session (or for every session when
 * none is open) with their files; a workspace file's hooks wait for the person's trust; each hook can
 * be turned off or run once with a sample event.
 */
export function HooksPage() {
  const link = useAppStore((state) => state.hostLink);
  const sessionId = useAppStore((state) => state.selectedSessionId);
  const title = useAppStore((state) => (sessionId === null ? null : (state.sessions.byId[sessionId]?.title ?? null)));
  const [list, setList] = useState<HookList | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const scope = sessionId === null ? {} : { sessionId };
  const scopeKey = sessionId ?? '';
  const reload = useCallback(async () => {
    const outcome = await link.invoke('hooks.list', sessionId === null ? {} : { sessionId });
    if (outcome.ok) {
      setList(outcome.result);
      setProblem(null);
    } else setProblem(outcome.error.message);
  }, [link, sessionId]);
  useEffect(() => {
    void reload();
  }, [reload, scopeKey]);

  /** Runs a change; the page shows the list it answers with, or why it was refused. */
  const change = async (call: () => Promise<Outcome<HookList>>): Promise<Outcome<HookList>> => {
    const outcome = await call();
    if (outcome.ok) {
      setList(outcome.result);
      setProblem(null);
    } else setProblem(outcome.error.message);
    return outcome;
  };

  if (list === null)
    return (
      <div className="hooks-page" data-testid="hooks-settings">
        <p className="settings-note">{problem ?? 'Reading hooks…'}</p>
      </div>
    );
  return (
    <div className="hooks-page" data-testid="hooks-settings">
      <p className="settings-note">
        Your own scripts at each step of an agent’s work, in Claude Code’s format. They run with your rights, outside
        the sandbox. {title === null ? 'Shown for every session.' : `Shown for “${title}”.`}
      </p>
      {problem === null ? null : (
        <p className="form-notice tone-error" role="alert">
          {problem}
        </p>
      )}
      <section className="settings-section" aria-labelledby="hooks-files">
        <h4 id="hooks-files">Files</h4>
        <p className="settings-note">
          Cairn’s hooks file: <code className="hooks-path">{list.globalFile}</code>
        </p>
        <label className="hooks-check">
          <input
            type="checkbox"
            checked={list.useClaudeUserSettings}
            onChange={(event) =>
              void change(() =>
                link.invoke('hooks.configure', { ...scope, useClaudeUserSettings: event.target.checked }),
              )
            }
          />
          Also run my Claude Code hooks (~/.claude/settings.json)
        </label>
        {list.errors.map((error) => (
          <p key={error.path} className="form-notice tone-error" role="alert" data-testid="hooks-file-error">
            {error.message} None of this file’s hooks run until it is fixed.
          </p>
        ))}
      </section>
      {list.untrusted.map((file) => (
        <section key={file.path} className="hooks-trust" data-testid="hooks-untrusted" aria-label="Hooks waiting">
          <p>
            <strong>
              {file.count === 1
                ? 'A hook in this workspace waits for your trust.'
                : `${file.count} hooks in this workspace wait for your trust.`}
            </strong>{' '}
            They would run these commands on your machine:
          </p>
          <ul className="hooks-commands">
            {list.hooks
              .filter((hook) => hook.sourcePath === file.path)
              .map((hook) => (
                <li key={hook.id}>
                  {hook.event}
                  {hook.matcher === '' ? '' : ` (${hook.matcher})`}: <code>{hook.command}</code>
                </li>
              ))}
          </ul>
          <p className="settings-note">
            From <code className="hooks-path">{file.path}</code>. Trust them only if you trust whoever wrote this
            folder; if they change, Cairn asks again.
          </p>
          <button
            type="button"
            className="button button-small button-primary"
            onClick={() =>
              void change(() =>
                link.invoke('hooks.trust', { ...scope, path: file.path, hash: file.hash, trusted: true }),
              )
            }
          >
            Trust these hooks
          </button>
        </section>
      ))}
      <section className="settings-section" aria-labelledby="hooks-list">
        <h4 id="hooks-list">Hooks in effect</h4>
        {list.hooks.length === 0 ? (
          <p className="settings-note">No hooks. Add some to one of the files above (see the Hooks guide).</p>
        ) : (
          <ul className="hooks-list">
            {list.hooks.map((hook) => (
              <HookRow key={hook.id} hook={hook} scope={scope} onChange={change} />
            ))}
          </ul>
        )}
        {list.skipped.length === 0 ? null : (
          <details className="settings-note">
            <summary>{list.skipped.length} entries Cairn does not run</summary>
            <ul>
              {list.skipped.map((line) => (
                <li key={line}>{line}</li>
              ))}
            </ul>
          </details>
        )}
      </section>
    </div>
  );
}

function HookRow({
  hook,
  scope,
  onChange,
}: {
  hook: HookEntry;
  scope: { sessionId?: string };
  onChange: (call: () => Promise<Outcome<HookList>>) => Promise<Outcome<HookList>>;
}) {
  const link = useAppStore((state) => state.hostLink);
  const [test, setTest] = useState<{ running: true } | { running: false; result: Outcome<HookTestResult> } | null>(
    null,
  );
  const runTest = async () => {
    setTest({ running: true });
    setTest({ running: false, result: await link.invoke('hooks.test', { ...scope, hookId: hook.id }) });
  };
  return (
    <li className="hooks-row" data-testid="hook-row">
      <div className="hooks-row-head">
        <span className="hooks-event">
          {hook.event}
          {hook.matcher === '' ? '' : <span className="hooks-matcher"> {hook.matcher}</span>}
        </span>
        {hook.trusted ? (
          <EnabledSwitch
            enabled={hook.enabled}
            onChange={async (enabled) => {
              const outcome = await onChange(() =>
                link.invoke('hooks.setEnabled', { ...scope, hookId: hook.id, enabled }),
              );
              return outcome.ok ? { ok: true } : { ok: false, message: outcome.error.message };
            }}
          />
        ) : (
          <span className="hooks-waiting">Waiting for trust</span>
        )}
      </div>
      <code className="hooks-command">{hook.command}</code>
      <p className="settings-note hooks-source">
        {SOURCE_LABELS[hook.sourceKind]} · <span className="hooks-path">{hook.sourcePath}</span> · timeout{' '}
        {hook.timeoutSeconds} s{hook.onError === 'fail' ? ' · fails the step on error' : ''}
      </p>
      <div className="hooks-test">
        <button
          type="button"
          className="button button-small"
          disabled={!hook.trusted || test?.running === true}
          onClick={() => void runTest()}
        >
          {test?.running === true ? 'Testing…' : 'Test'}
        </button>
        {test === null || test.running ? null : <TestResult outcome={test.result} />}
      </div>
    </li>
  );
}

function TestResult({ outcome }: { outcome: Outcome<HookTestResult> }) {
  if (!outcome.ok)
    return (
      <p className="form-notice tone-error" role="alert">
        {outcome.error.message}
      </p>
    );
  const { exitCode, outcome: how, message, error, durationMs } = outcome.result;
  const summary =
    how === 'error'
      ? `Failed: ${error ?? 'error'}`
      : how === 'blocked'
        ? `Blocks (exit ${String(exitCode)})`
        : `Goes on (exit ${String(exitCode)})`;
  return (
    <div
      className={`hooks-test-result tone-${how === 'error' ? 'error' : 'neutral'}`}
      role="status"
      data-testid="hook-test-result"
    >
      <span>
        {summary} · {durationMs} ms
      </span>
      {message === '' ? null : <pre>{message}</pre>}
    </div>
  );
}
