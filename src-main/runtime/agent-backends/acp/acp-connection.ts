import { accessSync, constants, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, isAbsolute, join } from 'node:path';
import type { AcpAgentCommand, ConnectionTestResult } from '../../../../src-shared/connection-model';
import { childEnvironment } from '../../shell/child-environment';
import { loadAcpAgent } from './acp-agent-loader';
import { DEFAULT_ACP_BOUNDS, errorText } from './acp-bounds';

/** The program an agent command runs, as found now (a full path, or the first match on PATH); null when there is none. */
export function findAgentProgram(command: string, path = process.env.PATH ?? ''): string | null {
  if (isAbsolute(command)) return executableFile(command) ? command : null;
  if (command.includes('/')) return null;
  for (const folder of path.split(delimiter)) {
    if (folder === '') continue;
    const candidate = join(folder, command);
    if (executableFile(candidate)) return candidate;
  }
  return null;
}

function executableFile(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Why an agent command cannot be saved, or null: its program must exist and be executable, its environment names valid. */
export function acpAgentProblem(agent: AcpAgentCommand): string | null {
  const { command } = agent;
  if (!isAbsolute(command) && command.includes('/'))
    return `Give the program as a full path or a name on PATH (${command} is a relative path).`;
  if (findAgentProgram(command) === null) {
    return isAbsolute(command)
      ? `There is no executable file at ${command}.`
      : `There is no program called ${command} on PATH: give its full path.`;
  }
  const badName = Object.keys(agent.env).find((name) => !/^[A-Za-z_][A-Za-z0-9_]*$/.test(name));
  if (badName !== undefined)
    return `"${badName}" is not an environment variable name (letters, digits and _, not starting with a digit).`;
  return null;
}

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
