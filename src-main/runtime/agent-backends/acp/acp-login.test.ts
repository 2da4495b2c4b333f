import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AcpLoginState } from '../../../../src-shared/acp-login-model';
import { deviceMayCall } from '../../../../src-shared/device-scope';
import { runningTestAgents, testAgentCommand } from '../../../testing/acp-test-agent-launch';
import { startTestHost, type TestHost } from '../../../testing/host-fixture';
import { waitFor } from '../../../testing/wait-for';
import type { Logger } from '../../ports/ports';
import { processGone } from '../../shell/process-group';

/**
 * Signing in to an ACP agent (docs/acp.md "Signing in"), with Cairn's test agent in `--auth`: it
 * refuses its session until signed in, and offers an agent sign-in (`authenticate`) and a terminal one
 * (`--login`, a code on stdin).
 */

let t: TestHost | null = null;
const logged: string[] = [];
const recordingLogger: Logger = {
  info: (message, fields) => void logged.push(`${message} ${JSON.stringify(fields ?? {})}`),
  warn: (message, fields) => void logged.push(`${message} ${JSON.stringify(fields ?? {})}`),
  error: (message, fields) => void logged.push(`${message} ${JSON.stringify(fields ?? {})}`),
};
afterEach(async () => {
  await t?.close();
  t = null;
  logged.length = 0;
});

async function authAgentSession() {
  const host = await startTestHost({ logger: recordingLogger, acp: { bounds: { killGraceMs: 300 } } });
  t = host;
  const state = mkdtempSync(join(tmpdir(), 'cairn-acp-login-'));
  const workspace = mkdtempSync(join(tmpdir(), 'cairn-acp-login-work-'));
  const { connection } = await host.call('connection.create', {
    name: 'Agent with sign-in',
    providerType: 'acp',
    acpAgent: testAgentCommand(state, { auth: true }),
  });
  const { session } = await host.call('session.create', {
    connectionId: connection.connectionId,
    permissionMode: 'ask',
    workspacePath: workspace,
  });
  return { host, connectionId: connection.connectionId, sessionId: session.sessionId, state };
}

async function loginReaches(host: TestHost, loginId: string, status: AcpLoginState['status']) {
  return waitFor(
    () => {
      const changed = host.events.filter(
        (event) => event.kind === 'acp.login.changed' && event.login.loginId === loginId,
      );
      const last = changed.at(-1);
      return last?.kind === 'acp.login.changed' && last.login.status === status ? last.login : null;
    },
    { timeoutMs: 20_000, message: `sign-in ${loginId} to be ${status}` },
  );
}

/** The terminal sign-in's output as the events carried it. */
const outputOf = (host: TestHost, loginId: string) =>
  host.events
    .map((event) => (event.kind === 'acp.login.output' && event.loginId === loginId ? event.text : ''))
    .join('');

const loginPids = (state: string) =>
  existsSync(join(state, 'login-pids'))
    ? readFileSync(join(state, 'login-pids'), 'utf8')
        .split('\n')
        .filter((line) => line !== '')
        .map(Number)
    : [];

describe('Signing in to an ACP agent', { timeout: 90_000 }, () => {
  it('an agent that wants a sign-in fails the turn as agent_auth_required; its ways are recorded; signing in with a code in the panel, then Retry, works', async () => {
    process.env.CAIRN_LOGIN_TEST_SECRET = 'host-only';
    const { host, connectionId, sessionId, state } = await authAgentSession();
    await host.call('turn.start', { sessionId, turnId: 't1', text: 'text Hello after signing in.' });
    const failed = await host.waitForTurn(sessionId, 't1', ['failed']);
    expect(failed.latestRun.errorCode).toBe('agent_auth_required');
    expect(failed.latestRun.errorMessage).toContain('asks you to sign in first');

    // Recorded from the session's initialize: no second start of the agent needed to know them.
    const methodsEvent = host.events.find((event) => event.kind === 'acp.login.methods.changed');
    expect(methodsEvent?.kind === 'acp.login.methods.changed' && methodsEvent.methods.connectionId).toBe(connectionId);
    const { methods } = await host.call('acp.login.methods', { connectionId });
    expect(methods.methods).toEqual([
      expect.objectContaining({ id: 'browser', kind: 'agent', name: 'Sign in with your browser' }),
      expect.objectContaining({ id: 'code', kind: 'terminal', args: ['--login'] }),
    ]);

    const { login } = await host.call('acp.login.start', { connectionId, methodId: 'code' });
    expect(login).toMatchObject({ status: 'running', kind: 'terminal', methodName: 'Sign in with a code' });
    await waitFor(() => outputOf(host, login.loginId).includes('Code:') || null, {
      timeoutMs: 20_000,
      message: 'the sign-in to ask for its code',
    });
    // A second ask while it runs answers the running one.
    expect((await host.call('acp.login.start', { connectionId, methodId: 'code' })).login.loginId).toBe(login.loginId);
    await host.call('acp.login.input', { loginId: login.loginId, text: '1234' });
    const done = await loginReaches(host, login.loginId, 'succeeded');
    expect(done.output).toContain('Signed in.');
    expect(readFileSync(join(state, 'credential'), 'utf8')).toBe('terminal\n');

    // Its environment: Cairn's child environment with the connection's variables and the method's, none of Cairn's own.
    const env = JSON.parse(readFileSync(join(state, 'login-env.json'), 'utf8')) as Record<string, string>;
    expect(env.ACP_TEST_AGENT_LOGIN).toBe('terminal');
    expect(env.ACP_TEST_AGENT_STATE).toBe(state);
    expect(Object.keys(env).filter((name) => /^CAIRN_/i.test(name))).toEqual([]);
    // Its output (which may hold codes) never reaches the log.
    expect(logged.join('\n')).not.toContain('login.example.invalid');
    expect(logged.join('\n')).not.toContain('Signed in.');

    await host.call('turn.resume', { sessionId, turnId: 't1' });
    await host.waitForTurn(sessionId, 't1', ['completed']);
    // The agent never saw the refused request: the retry sends it as it was, not as a resumed attempt.
    const items = (await host.call('transcript.page', { sessionId, limit: 50 })).items;
    const said = items.filter((item) => item.kind === 'assistant_message').map((item) => item.text);
    expect(said).toEqual(['Hello after signing in.']);
    delete process.env.CAIRN_LOGIN_TEST_SECRET;

    // A sign-in that ends later (the agent refuses the prompt): the turn fails as agent_auth_required again.
    rmSync(join(state, 'credential'));
    await host.call('turn.start', { sessionId, turnId: 't2', text: 'text Again.' });
    expect((await host.waitForTurn(sessionId, 't2', ['failed'])).latestRun.errorCode).toBe('agent_auth_required');
  });

  it('the agent signs in itself (authenticate); its refusal is shown as it said it', async () => {
    const { host, connectionId, sessionId, state } = await authAgentSession();
    writeFileSync(join(state, 'auth-refuse'), '');
    const refused = (await host.call('acp.login.start', { connectionId, methodId: 'browser' })).login;
    expect(refused.kind).toBe('agent');
    const failed = await loginReaches(host, refused.loginId, 'failed');
    expect(failed.error).toContain('The browser sign-in was declined');
    expect(existsSync(join(state, 'credential'))).toBe(false);

    rmSync(join(state, 'auth-refuse'));
    const { login } = await host.call('acp.login.start', { connectionId, methodId: 'browser' });
    await loginReaches(host, login.loginId, 'succeeded');
    expect(readFileSync(join(state, 'credential'), 'utf8')).toBe('browser\n');
    await waitFor(() => runningTestAgents(state).length === 0 || null, { message: 'the sign-in agent to end' });
    await host.call('turn.start', { sessionId, turnId: 't1', text: 'text Signed in by the agent.' });
    await host.waitForTurn(sessionId, 't1', ['completed']);
  });

  it('a wrong code fails the sign-in clearly and loses nothing; the next try works', async () => {
    const { host, connectionId, state } = await authAgentSession();
    const first = (await host.call('acp.login.start', { connectionId, methodId: 'code' })).login;
    await waitFor(() => outputOf(host, first.loginId).includes('Code:') || null, { timeoutMs: 20_000 });
    await host.call('acp.login.input', { loginId: first.loginId, text: '9999' });
    const failed = await loginReaches(host, first.loginId, 'failed');
    expect(failed.error).toContain('exit code 2');
    expect(failed.output).toContain('That code is not right');
    expect(existsSync(join(state, 'credential'))).toBe(false);
    const late = await host.invoke('acp.login.input', { loginId: first.loginId, text: '1234' });
    expect(late.ok === false && late.error.code).toBe('invalid_input');

    const second = (await host.call('acp.login.start', { connectionId, methodId: 'code' })).login;
    expect(second.loginId).not.toBe(first.loginId);
    await waitFor(() => outputOf(host, second.loginId).includes('Code:') || null, { timeoutMs: 20_000 });
    await host.call('acp.login.input', { loginId: second.loginId, text: '1234' });
    await loginReaches(host, second.loginId, 'succeeded');
  });

  it('Cancel ends the terminal sign-in with its whole process group; so does the host stopping', async () => {
    const { host, connectionId, state } = await authAgentSession();
    const { login } = await host.call('acp.login.start', { connectionId, methodId: 'code' });
    const pids = await waitFor(() => (loginPids(state).length === 2 ? loginPids(state) : null), {
      timeoutMs: 20_000,
      message: 'the sign-in and its helper to start',
    });
    const cancelled = await host.call('acp.login.cancel', { loginId: login.loginId });
    expect(cancelled.login.status).toBe('cancelled');
    await waitFor(() => pids.every(processGone) || null, { message: 'the sign-in and its helper to be gone' });
    expect(existsSync(join(state, 'credential'))).toBe(false);

    rmSync(join(state, 'login-pids'));
    await host.call('acp.login.start', { connectionId, methodId: 'code' });
    const again = await waitFor(() => (loginPids(state).length === 2 ? loginPids(state) : null), { timeoutMs: 20_000 });
    await host.close();
    t = null;
    expect(again.filter((pid) => !processGone(pid))).toEqual([]);
  });

  it('Cancel of an agent sign-in ends the agent it started', async () => {
    const { host, connectionId, state } = await authAgentSession();
    writeFileSync(join(state, 'auth-hang'), '');
    const { login } = await host.call('acp.login.start', { connectionId, methodId: 'browser' });
    await waitFor(() => runningTestAgents(state).length > 0 || null, { message: 'the agent to start' });
    const cancelled = await host.call('acp.login.cancel', { loginId: login.loginId });
    expect(cancelled.login).toMatchObject({ status: 'cancelled', error: null });
    expect(runningTestAgents(state)).toEqual([]);
  });

  it('a paired device may not sign in (a sign-in runs a program on the desktop)', () => {
    for (const op of ['acp.login.methods', 'acp.login.start', 'acp.login.input', 'acp.login.cancel'])
      expect(deviceMayCall(op, {})).toBe(false);
  });
});
