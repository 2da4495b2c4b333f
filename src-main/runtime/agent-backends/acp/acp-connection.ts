import { tmpdir } from 'node:os';
import type { AcpAgentCommand, ConnectionTestResult } from '../../../../src-shared/connection-model';
import { acpAgentProblem, findAgentProgram } from '../../connections/acp-agent-command';
import { childEnvironment } from '../../shell/child-environment';
import { loadAcpAgent } from './acp-agent-loader';
import { DEFAULT_ACP_BOUNDS, errorText } from './acp-bounds';

/**
 * Settings → Test on an ACP connection: starts the agent, runs `initialize`, and says its name,
 * version and what it can do; the agent process (its whole group) is ended after.
 */
export async function testAcpAgent(agent: AcpAgentCommand, cairnVersion: string): Promise<ConnectionTestResult> {
  const started = Date.now();
  const program = findAgentProgram(agent.command);
  if (program === null)
    return {
      verdict: 'unreachable',
      message: acpAgentProblem(agent) ?? `${agent.command} was not found.`,
      latencyMs: Date.now() - started,
    };
  const home: Record<string, string> = process.env.HOME === undefined ? { HOME: tmpdir() } : {};
  const env = childEnvironment({ scrubSecrets: false, only: ['PATH', 'HOME'], extra: { ...home, ...agent.env } });
  const refuse = () => Promise.reject(new Error('Test does not open files or terminals'));
  const none = () => {
    throw new Error('Test opens no terminals');
  };
  const { LiveAcpAgent } = await loadAcpAgent();
  const live = new LiveAcpAgent('test', { binary: program, args: agent.args, env, cwd: tmpdir() }, 'test', {
    readTextFile: refuse,
    writeTextFile: refuse,
    createTerminal: refuse,
    terminalOutput: none,
    waitForTerminalExit: refuse,
    killTerminal: none,
    releaseTerminal: none,
  });
  try {
    const info = await live.initialize(cairnVersion, { ...DEFAULT_ACP_BOUNDS, startMs: 15_000 });
    const caps = info.agentCapabilities;
    const can = [
      caps?.loadSession === true ? 'reloads sessions' : 'cannot reload sessions (a restart starts a new agent session)',
      caps?.promptCapabilities?.image === true ? 'images' : null,
      caps?.mcpCapabilities?.http === true ? 'MCP over HTTP' : null,
    ].filter((item): item is string => item !== null);
    const name =
      info.agentInfo === undefined || info.agentInfo === null
        ? 'The agent (it gave no name)'
        : `${info.agentInfo.title ?? info.agentInfo.name} ${info.agentInfo.version}`;
    return { verdict: 'ok', message: `${name} speaks ACP 1: ${can.join(', ')}.`, latencyMs: Date.now() - started };
  } catch (error) {
    const tail = live.process.stderrTail();
    // An agent that quit says so, with how it ended, rather than looking like a server's error.
    const exit = live.process.hasExited ? await live.process.exited : null;
    const why =
      exit === null
        ? `${program} did not answer initialize: ${errorText(error)}`
        : `${program} exited (${exit.signal === null ? `exit code ${exit.code ?? 'unknown'}` : `signal ${exit.signal}`}) before it answered initialize.`;
    return {
      verdict: 'server_error',
      message: `${why}${tail === '' ? '' : `\n${tail}`}`,
      latencyMs: Date.now() - started,
    };
  } finally {
    await live.process.terminate(DEFAULT_ACP_BOUNDS.killGraceMs, DEFAULT_ACP_BOUNDS.killConfirmMs);
  }
}
