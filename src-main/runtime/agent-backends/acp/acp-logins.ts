import { spawn, type ChildProcess } from 'node:child_process';
import { tmpdir } from 'node:os';
import type { InitializeResponse } from '@agentclientprotocol/sdk';
import {
  ACP_LOGIN_OUTPUT_CHARS,
  type AcpAuthMethod,
  type AcpAuthMethods,
  type AcpLoginState,
} from '../../../../src-shared/acp-login-model';
import type { AcpAgentCommand } from '../../../../src-shared/connection-model';
import { fail, ok, type Outcome } from '../../../../src-shared/errors';
import { findAgentProgram } from '../../connections/acp-agent-command';
import type { Logger } from '../../ports/ports';
import { childEnvironment } from '../../shell/child-environment';
import { processGroupGone, signalProcessGroup } from '../../shell/process-group';
import { waitUntil } from '../agent-process/agent-process';
import { agentEnv } from './acp-agent-start';
import { loadAcpAgent } from './acp-agent-loader';
import { authMethodsOf, loginCommandLine, terminalMethodEnv } from './acp-auth-methods';
import { DEFAULT_ACP_BOUNDS, bounded, errorText, type AcpBounds } from './acp-bounds';
import type { LiveAcpAgent } from './live-acp-agent';

export interface AcpLoginsDeps {
  resolve(connectionId: string): AcpAgentCommand | { error: string };
  readonly cairnVersion: string;
  now(): number;
  newId(): string;
  readonly logger: Logger;
  onMethods(methods: AcpAuthMethods): void;
  onLogin(login: AcpLoginState): void;
  onOutput(loginId: string, text: string): void;
  readonly bounds?: Partial<AcpBounds>;
  /** How long an agent sign-in (`authenticate`: the person in a browser, say) may take (ms). */
  readonly agentLoginMs?: number;
}

/** How many ended sign-ins are kept. */
const KEPT_ENDED = 20;

interface Running {
  state: AcpLoginState;
  /** The terminal sign-in's program, or the agent asked to sign in. */
  readonly child: ChildProcess | null;
  readonly live: LiveAcpAgent | null;
  cancelled: boolean;
  readonly ended: Promise<void>;
}

/**
 * Signing in to ACP agents (docs/acp.md "Signing in"): the ways each connection's agent declares at
 * `initialize`, kept per connection; and sign-ins, one per connection at a time, in their own process
 * group, ended with it on Cancel and when Cairn stops. A terminal sign-in's output goes to the person's
 * panel only (it may hold codes or tokens): never to the log.
 */
export class AcpLogins {
  private readonly methods = new Map<string, { known: AcpAuthMethods; raw: unknown }>();
  private readonly logins = new Map<string, Running>();
  private readonly bounds: AcpBounds;

  constructor(private readonly deps: AcpLoginsDeps) {
    this.bounds = { ...DEFAULT_ACP_BOUNDS, ...deps.bounds };
  }

  /** The agent of `connectionId` said how it signs in (its `initialize`, as it started for a session or a sign-in). */
  noteInitialized(connectionId: string, info: Pick<InitializeResponse, 'authMethods'>): AcpAuthMethods {
    const known = { connectionId, methods: authMethodsOf(info.authMethods), at: this.deps.now() };
    this.methods.set(connectionId, { known, raw: info.authMethods });
    this.deps.onMethods(known);
    return known;
  }

  /** How the connection's agent signs in: as it last said, or (not yet asked, or `refresh`) by starting it for `initialize`. */
  async methodsOf(
    connectionId: string,
    refresh = false,
  ): Promise<Outcome<AcpAuthMethods, 'invalid_input' | 'provider_error'>> {
    const kept = this.methods.get(connectionId);
    if (kept !== undefined && !refresh) return ok(kept.known);
    const command = this.deps.resolve(connectionId);
    if ('error' in command) return fail('invalid_input', command.error);
    const live = await this.startAgent(command);
    if ('error' in live) return fail('provider_error', live.error);
    try {
      const info = await live.initialize(this.deps.cairnVersion, this.bounds);
      return ok(this.noteInitialized(connectionId, info));
    } catch (error) {
      return fail('provider_error', `The agent did not answer initialize: ${errorText(error)}`);
    } finally {
      await live.process.terminate(this.bounds.killGraceMs, this.bounds.killConfirmMs);
    }
  }

  /** Starts signing in with one of the agent's methods; one already running for the connection is answered as it is. */
  async start(
    connectionId: string,
    methodId: string,
  ): Promise<Outcome<{ login: AcpLoginState }, 'invalid_input' | 'provider_error'>> {
    const running = [...this.logins.values()].find(
      (login) => login.state.connectionId === connectionId && login.state.status === 'running',
    );
    if (running !== undefined) return ok({ login: running.state });
    const command = this.deps.resolve(connectionId);
    if ('error' in command) return fail('invalid_input', command.error);
    const known = await this.methodsOf(connectionId);
    if (!known.ok) return known;
    const method = known.result.methods.find((candidate) => candidate.id === methodId);
    if (method === undefined) return fail('invalid_input', 'The agent does not offer that way to sign in.');
    if (method.kind === 'env_var')
      return fail(
        'invalid_input',
        `This agent reads ${method.vars.join(', ') || 'a key'} from its environment: put it in the connection’s API key field or Environment.`,
      );
    const base = {
      loginId: this.deps.newId(),
      connectionId,
      methodId: method.id,
      methodName: method.name,
      kind: method.kind,
      status: 'running' as const,
      output: '',
      error: null,
      startedAt: this.deps.now(),
      endedAt: null,
    };
    const login =
      method.kind === 'terminal'
        ? this.runTerminal(base, command, method, this.methods.get(connectionId)?.raw)
        : await this.runAgent(base, command, method);
    return ok({ login: login.state });
  }

  /** A line typed in the panel, sent to the terminal sign-in's stdin. */
  input(loginId: string, text: string): Outcome<{ login: AcpLoginState }, 'not_found' | 'invalid_input'> {
    const login = this.logins.get(loginId);
    if (login === undefined) return fail('not_found', 'That sign-in is not known (Cairn may have restarted).');
    if (login.state.status !== 'running' || login.child?.stdin == null || login.child.stdin.destroyed)
      return fail('invalid_input', 'That sign-in is not waiting for input.');
    login.child.stdin.write(`${text}\n`);
    return ok({ login: login.state });
  }

  /** Cancels a running sign-in: its process group is ended (SIGTERM, then SIGKILL after the grace). */
  async cancel(loginId: string): Promise<Outcome<{ login: AcpLoginState }, 'not_found'>> {
    const login = this.logins.get(loginId);
    if (login === undefined) return fail('not_found', 'That sign-in is not known (Cairn may have restarted).');
    if (login.state.status === 'running') {
      login.cancelled = true;
      await this.end(login);
      await login.ended;
    }
    return ok({ login: login.state });
  }

  /** Ends every running sign-in (Cairn stops). */
  async shutdown(): Promise<void> {
    await Promise.all(
      [...this.logins.values()]
        .filter((login) => login.state.status === 'running')
        .map(async (login) => {
          login.cancelled = true;
          await this.end(login);
        }),
    );
  }

  private async startAgent(command: AcpAgentCommand): Promise<LiveAcpAgent | { error: string }> {
    const program = findAgentProgram(command.command);
    if (program === null) return { error: `${command.command} was not found.` };
    const { LiveAcpAgent } = await loadAcpAgent();
    const refuse = () => Promise.reject(new Error('A sign-in opens no files or terminals'));
    const none = () => {
      throw new Error('A sign-in opens no terminals');
    };
    return new LiveAcpAgent(
      'login',
      { binary: program, args: command.args, env: agentEnv(command), cwd: tmpdir() },
      'login',
      {
        readTextFile: refuse,
        writeTextFile: refuse,
        createTerminal: refuse,
        terminalOutput: none,
        waitForTerminalExit: refuse,
        killTerminal: none,
        releaseTerminal: none,
      },
    );
  }

  /** `agent`: the agent signs in itself (`authenticate`), perhaps in the person's browser; its error is shown as it said it. */
  private async runAgent(base: AcpLoginState, command: AcpAgentCommand, method: AcpAuthMethod): Promise<Running> {
    let resolveEnded = () => {};
    const ended = new Promise<void>((resolve) => (resolveEnded = resolve));
    const started = await this.startAgent(command);
    const live = 'error' in started ? null : started;
    const login: Running = { state: base, child: null, live, cancelled: false, ended };
    this.logins.set(base.loginId, login);
    this.append(login, `Asking the agent to sign in (${method.name}); it may open your browser…\n`);
    this.deps.onLogin(login.state);
    void (async () => {
      try {
        if (live === null) throw new Error('error' in started ? started.error : 'The agent could not start.');
        await live.initialize(this.deps.cairnVersion, this.bounds);
        await bounded(
          live.connection.agent.request('authenticate', { methodId: method.id }),
          this.deps.agentLoginMs ?? 600_000,
          'authenticate',
        );
        this.finish(login, 'succeeded', null);
      } catch (error) {
        const tail = live?.process.stderrTail() ?? '';
        this.finish(
          login,
          login.cancelled ? 'cancelled' : 'failed',
          login.cancelled ? null : `The agent could not sign in: ${errorText(error)}${tail === '' ? '' : `\n${tail}`}`,
        );
      } finally {
        await live?.process.terminate(this.bounds.killGraceMs, this.bounds.killConfirmMs);
        resolveEnded();
      }
    })();
    return login;
  }

  /**
   * `terminal`: the agent's program with the method's arguments (its own replaced) and variables (over
   * the connection's), through Cairn's child environment; stdout and stderr to the panel, the panel's
   * lines to its stdin. Exit code 0 is signed in.
   */
  private runTerminal(base: AcpLoginState, command: AcpAgentCommand, method: AcpAuthMethod, raw: unknown): Running {
    const argv = loginCommandLine(command, method.args);
    const env = childEnvironment({
      scrubSecrets: false,
      only: ['PATH', 'HOME', 'USER', 'LANG', 'TMPDIR', 'SHELL', 'TERM'],
      extra: { TERM: 'dumb', ...command.env, ...terminalMethodEnv(raw, method.id) },
    });
    const program = findAgentProgram(argv[0] ?? command.command) ?? argv[0] ?? command.command;
    const child = spawn(program, argv.slice(1), {
      cwd: tmpdir(),
      env,
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
    });
    let resolveEnded = () => {};
    const ended = new Promise<void>((resolve) => (resolveEnded = resolve));
    const login: Running = { state: base, child, live: null, cancelled: false, ended };
    this.logins.set(base.loginId, login);
    this.deps.onLogin(login.state);
    const output = (chunk: string) => {
      this.append(login, chunk);
      this.deps.onOutput(base.loginId, chunk);
    };
    child.stdout.setEncoding('utf8').on('data', output);
    child.stderr.setEncoding('utf8').on('data', output);
    child.stdin.on('error', () => {});
    let spawnError: string | null = null;
    child.once('error', (error) => {
      spawnError = error.message;
    });
    // What it left running in its group goes when it exits (its pipes close then, and `close` follows).
    child.once('exit', () => {
      if (child.pid !== undefined && !processGroupGone(child.pid)) signalProcessGroup(child.pid, 'SIGKILL');
    });
    child.once('close', (code, signal) => {
      if (login.cancelled) this.finish(login, 'cancelled', null);
      else if (spawnError !== null) this.finish(login, 'failed', `The sign-in could not start: ${spawnError}`);
      else if (code === 0) this.finish(login, 'succeeded', null);
      else
        this.finish(
          login,
          'failed',
          signal === null
            ? `The sign-in ended with exit code ${code ?? 'unknown'}: it did not sign you in. Its output is above.`
            : `The sign-in was ended by ${signal}: it did not sign you in.`,
        );
      resolveEnded();
    });
    return login;
  }

  private append(login: Running, text: string): void {
    login.state = { ...login.state, output: (login.state.output + text).slice(-ACP_LOGIN_OUTPUT_CHARS) };
  }

  private finish(login: Running, status: AcpLoginState['status'], error: string | null): void {
    if (login.state.status !== 'running') return;
    login.state = { ...login.state, status, error, endedAt: this.deps.now() };
    this.deps.logger.info('An ACP sign-in ended', {
      connectionId: login.state.connectionId,
      methodId: login.state.methodId,
      status,
    });
    this.deps.onLogin(login.state);
    // Ended sign-ins are kept so a late input or Cancel is answered with how they ended: the newest few only.
    const ended = [...this.logins.entries()].filter(([, other]) => other.state.status !== 'running');
    for (const [loginId] of ended.slice(0, Math.max(0, ended.length - KEPT_ENDED))) this.logins.delete(loginId);
  }

  /** Ends the sign-in's process group: SIGTERM, then SIGKILL once the grace passes, waiting until it is gone. */
  private async end(login: Running): Promise<void> {
    if (login.live !== null) {
      await login.live.process.terminate(this.bounds.killGraceMs, this.bounds.killConfirmMs);
      return;
    }
    const pgid = login.child?.pid;
    if (pgid === undefined || processGroupGone(pgid)) return;
    signalProcessGroup(pgid, 'SIGTERM');
    if (await waitUntil(() => processGroupGone(pgid), this.bounds.killGraceMs)) return;
    signalProcessGroup(pgid, 'SIGKILL');
    if (!(await waitUntil(() => processGroupGone(pgid), this.bounds.killConfirmMs)))
      this.deps.logger.warn('An ACP sign-in could not be confirmed stopped', { pid: pgid });
  }
}
