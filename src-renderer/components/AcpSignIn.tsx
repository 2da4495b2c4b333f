import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import '../styles/acp-signin.css';
import type { AcpAuthMethod, AcpLoginState } from '../../src-shared/acp-login-model';
import { onDevicePage } from '../platform/device-page';
import { useAppStore } from '../state/store-context';
import { AlertIcon, CheckIcon, Spinner } from './icons';

/**
 * Sign in to an ACP connection's agent (docs/acp.md "Signing in"): the ways it declares, and the
 * sign-in as it runs — an agent sign-in's progress, or a terminal sign-in's output with an input line
 * — with Cancel, and the agent's error as it said it. `onSignedIn` runs once it succeeds (Retry of the
 * refused turn). Where `onAsk` is false the ways are read at once (the agent just said them),
 * else on the person's click (reading them may start the agent).
 */
export function AcpSignIn({
  connectionId,
  onSignedIn,
  askFirst = false,
}: {
  connectionId: string;
  onSignedIn?: (() => void) | undefined;
  askFirst?: boolean;
}) {
  const link = useAppStore((state) => state.hostLink);
  const [onDevice] = useState(onDevicePage);
  const [methods, setMethods] = useState<readonly AcpAuthMethod[] | null>(null);
  const [reading, setReading] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [login, setLogin] = useState<AcpLoginState | null>(null);
  const signedIn = useRef(onSignedIn);
  signedIn.current = onSignedIn;
  /** The sign-in this panel shows, and whether its success was passed on (once). */
  const currentLogin = useRef<string | null>(null);
  const told = useRef<string | null>(null);
  const succeeded = (loginId: string) => {
    if (told.current === loginId) return;
    told.current = loginId;
    signedIn.current?.();
  };

  const readMethods = useCallback(
    async (refresh: boolean) => {
      setReading(true);
      setProblem(null);
      const outcome = await link.invoke('acp.login.methods', { connectionId, ...(refresh ? { refresh } : {}) });
      setReading(false);
      if (outcome.ok) setMethods(outcome.result.methods.methods);
      else setProblem(outcome.error.message);
    },
    [link, connectionId],
  );

  useEffect(() => {
    if (!askFirst && !onDevice) void readMethods(false);
  }, [askFirst, onDevice, readMethods]);

  // The sign-ins' state and output as the host announces them: listened to from the start, so output
  // that comes before the start's answer is applied is not missed (it is kept by sign-in until shown).
  const outputs = useRef(new Map<string, string>());
  const [, setOutputCount] = useState(0);
  useEffect(
    () =>
      link.subscribe((event) => {
        if (event.kind === 'acp.login.output') {
          outputs.current.set(event.loginId, (outputs.current.get(event.loginId) ?? '') + event.text);
          setOutputCount((count) => count + 1);
        }
        if (event.kind === 'acp.login.changed' && event.login.loginId === currentLogin.current) {
          setLogin(event.login);
          if (event.login.status === 'succeeded') succeeded(event.login.loginId);
        }
      }),
    [link, connectionId],
  );
  // While it runs, what it said so far (the start's answer, then the events); once ended, the host's whole account.
  const shown =
    login === null || login.status !== 'running'
      ? login
      : { ...login, output: login.output + (outputs.current.get(login.loginId) ?? '') };

  if (onDevice)
    return (
      <p className="settings-note" data-testid="acp-signin-desktop-only">
        <strong>Only on the desktop.</strong> Signing in runs the agent’s program, on the computer running Cairn.
      </p>
    );

  const start = async (method: AcpAuthMethod) => {
    setProblem(null);
    const outcome = await link.invoke('acp.login.start', { connectionId, methodId: method.id });
    if (!outcome.ok) return setProblem(outcome.error.message);
    currentLogin.current = outcome.result.login.loginId;
    setLogin(outcome.result.login);
    if (outcome.result.login.status === 'succeeded') succeeded(outcome.result.login.loginId);
  };

  return (
    <section className="acp-signin" data-testid="acp-signin" aria-label="Sign in to the agent">
      {methods === null ? (
        <div className="acp-signin-row">
          {askFirst ? (
            <button type="button" className="button" disabled={reading} onClick={() => void readMethods(true)}>
              {reading ? <Spinner /> : null}
              Sign in…
            </button>
          ) : reading ? (
            <Spinner label="Asking the agent how it signs in" />
          ) : null}
          {askFirst ? (
            <span className="acp-signin-help">Asks the agent how it signs in (it starts for a moment).</span>
          ) : null}
        </div>
      ) : (
        <MethodList methods={methods} running={shown?.status === 'running'} onStart={(method) => void start(method)} />
      )}
      {problem !== null ? (
        <p className="acp-signin-line tone-bad" role="alert">
          <AlertIcon />
          {problem}
        </p>
      ) : null}
      {shown !== null ? <LoginPanel login={shown} /> : null}
    </section>
  );
}

function MethodList({
  methods,
  running,
  onStart,
}: {
  methods: readonly AcpAuthMethod[];
  running: boolean;
  onStart: (method: AcpAuthMethod) => void;
}) {
  if (methods.length === 0)
    return (
      <p className="acp-signin-help" data-testid="acp-signin-none">
        This agent declares no way to sign in: give it its key in the connection’s API key field or Environment.
      </p>
    );
  return (
    <ul className="acp-signin-methods" aria-label="Ways to sign in">
      {methods.map((method) => (
        <li key={method.id} className="acp-signin-method">
          {method.kind === 'env_var' ? (
            <span>
              <strong>{method.name}</strong>: set{' '}
              {method.vars.length === 0 ? 'its key' : method.vars.map((name) => <code key={name}>{name} </code>)}in the
              connection’s API key field or Environment.
            </span>
          ) : (
            <>
              <button
                type="button"
                className="button button-small"
                disabled={running}
                data-method-id={method.id}
                onClick={() => onStart(method)}
              >
                {method.name}
              </button>
              <span className="acp-signin-help">
                {method.description ??
                  (method.kind === 'terminal'
                    ? 'Runs the agent’s own sign-in here, in a panel'
                    : 'The agent signs in itself; it may open your browser')}
              </span>
            </>
          )}
        </li>
      ))}
    </ul>
  );
}

/** The running (or last) sign-in: its output and an input line for a terminal one, progress for an agent one, Cancel, the outcome. */
function LoginPanel({ login }: { login: AcpLoginState }) {
  const link = useAppStore((state) => state.hostLink);
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const output = useRef<HTMLPreElement>(null);
  const running = login.status === 'running';
  useEffect(() => {
    const pre = output.current;
    if (pre !== null) pre.scrollTop = pre.scrollHeight;
  }, [login.output]);

  const send = async (event: FormEvent) => {
    event.preventDefault();
    setProblem(null);
    const outcome = await link.invoke('acp.login.input', { loginId: login.loginId, text });
    if (outcome.ok) setText('');
    else setProblem(outcome.error.message);
  };
  const cancel = async () => {
    const outcome = await link.invoke('acp.login.cancel', { loginId: login.loginId });
    if (!outcome.ok) setProblem(outcome.error.message);
  };

  return (
    <div className="acp-signin-panel" data-testid="acp-signin-panel" data-status={login.status} data-kind={login.kind}>
      <div className="acp-signin-row">
        <strong className="acp-signin-title">{login.methodName}</strong>
        <StatusLine login={login} />
        {running ? (
          <button type="button" className="button button-small button-quiet" onClick={() => void cancel()}>
            Cancel
          </button>
        ) : null}
      </div>
      {login.kind === 'terminal' ? (
        <pre className="acp-signin-output" ref={output} aria-live="polite" data-testid="acp-signin-output">
          {login.output === '' ? 'Starting…' : login.output}
        </pre>
      ) : null}
      {login.kind === 'terminal' && running ? (
        <form className="acp-signin-input" onSubmit={(event) => void send(event)}>
          <input
            className="input"
            aria-label="Answer the sign-in"
            placeholder="Type here, then Enter"
            autoComplete="off"
            spellCheck={false}
            value={text}
            onChange={(event) => setText(event.target.value)}
          />
          <button type="submit" className="button button-small">
            Send
          </button>
        </form>
      ) : null}
      {login.kind === 'terminal' && running ? (
        <p className="acp-signin-help">
          What you type is sent with Enter (or Send) and is not shown. The program runs without a terminal: a
          full-screen or arrow-key prompt may not work here.
        </p>
      ) : null}
      {login.status === 'failed' && login.error !== null ? (
        <pre className="acp-signin-output tone-bad" role="alert" data-testid="acp-signin-error">
          {login.error}
        </pre>
      ) : null}
      {problem !== null ? <p className="acp-signin-line tone-bad">{problem}</p> : null}
    </div>
  );
}

function StatusLine({ login }: { login: AcpLoginState }) {
  switch (login.status) {
    case 'running':
      return (
        <span className="acp-signin-line" role="status">
          <Spinner />
          {login.kind === 'agent' ? 'Waiting for the agent to sign in (it may open your browser)…' : 'Running'}
        </span>
      );
    case 'succeeded':
      return (
        <span className="acp-signin-line tone-ok" role="status">
          <CheckIcon />
          Signed in
        </span>
      );
    case 'failed':
      return (
        <span className="acp-signin-line tone-bad" role="status">
          <AlertIcon />
          Not signed in
        </span>
      );
    case 'cancelled':
      return (
        <span className="acp-signin-line" role="status">
          Cancelled
        </span>
      );
  }
}
