import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../storage/database';
import { MIGRATIONS } from '../../storage/migrations';
import { createShellRunStore } from '../../storage/shell-run-store';
import { outcome, toolContext } from '../../testing/workspace-fixture';
import { systemClock } from '../ports/ports';
import { createShellRunner } from '../shell/shell-runner';
import { createRunShellTool } from '../workspace/run-shell-tool';
import { detectSandbox } from './sandbox-availability';
import { SandboxService, type NetworkBlock, type PreparedSandbox, type SessionRun } from './sandbox-service';

/**
 * The network of a sandboxed command, with the real bubblewrap, socat and the host's proxy: a host
 * not on the allowlist is refused with the exact line, allowed once it is on the list, and Cairn's
 * own port is never reachable. Traffic goes only to loopback: the proxy's resolver maps the test's
 * made-up host name to 127.0.0.1 and refuses every other name.
 */

const availability = detectSandbox('detect');
const linux = process.platform === 'linux';
const TEST_HOST = 'api.cairn-test.example';
const AGENT_HOST = 'agent.cairn-test.example';

describe.runIf(linux)('the sandbox network', () => {
  let base: string;
  let workspace: string;
  let db: Db;
  let server: Server;
  let cairn: Server;
  let port: number;
  let cairnPort: number;
  let counter = 0;
  const sessionHosts: string[] = [];
  let once: string[] = [];
  let agentOnce: string[] = [];
  let current: SessionRun | null = null;
  const blocks: NetworkBlock[] = [];
  let sandbox: SandboxService;

  const listen = async (answer: string): Promise<[Server, number]> => {
    const made = createServer((_request, response) => response.end(answer));
    await new Promise<void>((resolve) => made.listen(0, '127.0.0.1', resolve));
    return [made, (made.address() as AddressInfo).port];
  };

  beforeAll(async () => {
    expect(availability, 'bubblewrap and socat must be installed (npm test installs them)').toMatchObject({
      available: true,
    });
    base = mkdtempSync('/var/tmp/cairn-sandbox-net-');
    workspace = path.join(base, 'workspace');
    mkdirSync(workspace);
    db = openDatabase(path.join(base, 'db'), { migrations: MIGRATIONS });
    db.prepare(
      "INSERT INTO sessions (session_id, title, title_source, connection_id, permission_mode, revision, created_at, updated_at) VALUES ('s1', 'T', 'user', 'c', 'auto', 1, 0, 0)",
    ).run();
    [server, port] = await listen('REACHED THE TEST SERVER');
    [cairn, cairnPort] = await listen('REACHED CAIRN');
    sandbox = new SandboxService({
      availability,
      dataDir: path.join(base, 'data'),
      home: path.join(base, 'home'),
      network: {
        allowedHosts: () => sessionHosts,
        takeOnce: () => {
          const taken = once;
          once = [];
          return taken;
        },
        takeOnceFor: (_sessionId, host) => {
          const had = agentOnce.includes(host);
          agentOnce = agentOnce.filter((entry) => entry !== host);
          return had;
        },
        currentRun: () => current,
        ownPorts: () => [cairnPort],
        onBlocked: (block) => blocks.push(block),
        resolve: async (host) => {
          if (host === TEST_HOST || host === AGENT_HOST || host === 'localhost') return '127.0.0.1';
          if (host === 'zero.cairn-test.example') return '0.0.0.0';
          throw new Error(`not resolved in this test: ${host}`);
        },
      },
    });
  });

  afterAll(async () => {
    await Promise.all([server, cairn].map((made) => new Promise((resolve) => made.close(resolve))));
    db.close();
    rmSync(base, { recursive: true, force: true });
  });

  const runShell = async (command: string) => {
    const runner = createShellRunner({
      store: createShellRunStore(db),
      clock: systemClock,
      newShellRunId: () => `sh-${++counter}`,
      killGraceMs: 500,
    });
    const tool = createRunShellTool({
      root: workspace,
      runner,
      confine: (owner, cwd, options) => sandbox.confine('auto', cwd, owner, options),
    });
    return outcome(
      await tool.execute(
        { command },
        toolContext({ sessionId: 's1', turnId: 't1', toolCallId: `call-${counter}` } as never),
      ),
    );
  };

  it('refuses a host not on the allowlist with the exact line, then reaches it once the session allows it', async () => {
    // curl without -f prints the 403's body (and exits 0): the agent sees why either way.
    const blocked = await runShell(`curl -sS http://${TEST_HOST}:${port}/`);
    expect(blocked.output.stdout).toBe(`blocked by the sandbox: network to ${TEST_HOST}\n`);
    expect(String(blocked.output.blocked).split('\n')).toContain(`blocked by the sandbox: network to ${TEST_HOST}`);
    expect(blocks).toContainEqual(
      expect.objectContaining({ sessionId: 's1', turnId: 't1', host: TEST_HOST, port, own: false }),
    );

    // HTTPS goes through CONNECT: refused the same way.
    const tunnel = await runShell(`curl -sS --proxytunnel http://${TEST_HOST}:${port}/`);
    expect(tunnel.isError).toBe(true);
    expect(tunnel.output.blocked).toBe(`blocked by the sandbox: network to ${TEST_HOST}`);

    // "Allow once": the next command gets through, the one after is blocked again.
    once = [TEST_HOST];
    expect((await runShell(`curl -sS http://${TEST_HOST}:${port}/`)).output.stdout).toBe('REACHED THE TEST SERVER');
    expect((await runShell(`curl -sS http://${TEST_HOST}:${port}/`)).output.blocked).toBe(
      `blocked by the sandbox: network to ${TEST_HOST}`,
    );

    sessionHosts.push(`${TEST_HOST}:${port}`);
    const allowed = await runShell(
      `curl -sS http://${TEST_HOST}:${port}/ && echo && curl -sS --proxytunnel http://${TEST_HOST}:${port}/`,
    );
    expect(allowed).toMatchObject({
      isError: false,
      output: { stdout: 'REACHED THE TEST SERVER\nREACHED THE TEST SERVER', sandboxed: true },
    });
    expect(allowed.output.blocked).toBeUndefined();
  });

  it("never reaches Cairn's own port, allowed or not, through the proxy or around it", async () => {
    sessionHosts.push('localhost');
    const through = await runShell(
      `curl -sS http://localhost:${cairnPort}/; curl -sS --proxytunnel http://localhost:${cairnPort}/`,
    );
    expect(through.output.stdout).not.toContain('REACHED CAIRN');
    expect(through.output.blocked).toBe('blocked by the sandbox: network to localhost');
    expect(blocks).toContainEqual(expect.objectContaining({ host: 'localhost', port: cairnPort, own: true }));
    // A name resolving to 0.0.0.0 (which connects to this machine) is no way around it.
    sessionHosts.push('zero.cairn-test.example');
    const zero = await runShell(`curl -sS http://zero.cairn-test.example:${cairnPort}/`);
    expect(zero.output.stdout).not.toContain('REACHED CAIRN');
    expect(zero.output.blocked).toBe('blocked by the sandbox: network to zero.cairn-test.example');
    const around = await runShell(`curl -sS --noproxy '*' --max-time 5 http://127.0.0.1:${cairnPort}/`);
    expect(around.isError).toBe(true);
    expect(around.output.stdout).not.toContain('REACHED CAIRN');
    // The test server on another loopback port is reachable, so the refusal above is about the port.
    expect((await runShell(`curl -sS http://localhost:${port}/`)).output.stdout).toBe('REACHED THE TEST SERVER');
  });

  /** Runs `command` in a walled agent's sandbox (`prepared`, kept, as an agent's is for its life) or in a fresh one. */
  const inAgentWall = async (prepared: PreparedSandbox, command: string) => {
    const argv = prepared.wrap(['bash', '-c', command]);
    // Asynchronously: the proxy serves from this process.
    return (await promisify(execFile)(argv[0] ?? '', argv.slice(1), { cwd: workspace, encoding: 'utf8' })).stdout;
  };
  const agentWall = (hosts: string[]) =>
    sandbox.prepare(workspace, { sessionId: 's1' }, { home: path.join(base, 'home'), writable: [], hosts });

  it("an agent's wall: its loopback model endpoint served at the same address inside, through the proxy; nothing else of the machine, Cairn's own port never; loopback otherwise its own", async () => {
    const agentRun = async (hosts: string[], command: string) => {
      const prepared = agentWall(hosts);
      try {
        return await inAgentWall(prepared, command);
      } finally {
        prepared.dispose();
      }
    };
    // The session allows TEST_HOST: its list applies to the agent too.
    sessionHosts.push(`${TEST_HOST}:${port}`);
    const before = blocks.length;
    const out = await agentRun(
      [`localhost:${port}`],
      [
        `curl -sS --max-time 5 http://127.0.0.1:${port}/; echo`,
        // Another loopback port of the machine: not there inside (its own loopback), nor through the proxy.
        `curl -sS --max-time 5 http://127.0.0.1:${cairnPort}/ 2>/dev/null; echo "direct: $?"`,
        `curl -sS --max-time 5 --noproxy '' -x http://127.0.0.1:3128 http://127.0.0.1:${cairnPort}/; echo`,
        `curl -sS --max-time 5 --noproxy '' -x http://127.0.0.1:3128 http://${TEST_HOST}:${port}/; echo`,
        // Its own servers on loopback work without the proxy.
        `(node -e "require('http').createServer((q, r) => r.end('OWN')).listen(4555, '127.0.0.1')" &) ; for _ in $(seq 100); do curl -s http://127.0.0.1:4555/ && break; sleep 0.05; done; echo`,
      ].join('; '),
    );
    expect(out).toBe(
      `REACHED THE TEST SERVER\ndirect: 7\nblocked by the sandbox: network to 127.0.0.1\n\nREACHED THE TEST SERVER\nOWN\n`,
    );
    expect(blocks.slice(before)).toEqual([{ sessionId: 's1', host: '127.0.0.1', port: cairnPort, own: false }]);
    // Its endpoint being Cairn's own port gets it nothing.
    expect(
      await agentRun(
        [`localhost:${cairnPort}`],
        `curl -sS --max-time 5 http://127.0.0.1:${cairnPort}/; echo " exit: $?"`,
      ),
    ).not.toContain('REACHED CAIRN');
  });

  it("an agent's own blocks go to the session's run in flight, once per host and turn; the session's list and an \"Allow once\" apply to the running agent; outside a run, no card", async () => {
    const prepared = agentWall([]);
    try {
      const fetch = `curl -sS --max-time 5 http://${AGENT_HOST}:${port}/; echo`;
      const blocked = `blocked by the sandbox: network to ${AGENT_HOST}\n`;
      current = { turnId: 't5', runId: 'r5', inFlight: true };
      const before = blocks.length;
      expect(await inAgentWall(prepared, `${fetch}; ${fetch}`)).toBe(`${blocked}\n${blocked}\n`);
      expect(await inAgentWall(prepared, fetch)).toBe(`${blocked}\n`);
      expect(blocks.slice(before)).toEqual([
        { sessionId: 's1', turnId: 't5', runId: 'r5', host: AGENT_HOST, port, own: false },
      ]);
      // "Allow once": the agent's next connection there, not the one after.
      agentOnce = [AGENT_HOST];
      expect(await inAgentWall(prepared, `${fetch}; ${fetch}`)).toBe(`REACHED THE TEST SERVER\n${blocked}\n`);
      // Allowed for the session while the agent runs: its next request gets through.
      sessionHosts.push(AGENT_HOST);
      expect(await inAgentWall(prepared, fetch)).toBe('REACHED THE TEST SERVER\n');
      sessionHosts.pop();
      // Between turns: recorded in the session's latest run, without a card.
      current = { turnId: 't6', runId: 'r6', inFlight: false };
      expect(await inAgentWall(prepared, fetch)).toBe(`${blocked}\n`);
      expect(blocks.at(-1)).toEqual({
        sessionId: 's1',
        turnId: 't6',
        runId: 'r6',
        host: AGENT_HOST,
        port,
        own: false,
        noCard: true,
      });
    } finally {
      prepared.dispose();
      current = null;
    }
  });
});
