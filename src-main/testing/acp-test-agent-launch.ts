import { readFileSync } from 'node:fs';
import { processGone } from '../runtime/shell/process-group';
import { testProgramArgs } from './test-programs';

/** The command line that runs Cairn's ACP test agent (`acp-test-agent.ts`, bundled or through tsx), keeping its state in `stateDir`. */
export function testAgentCommand(
  stateDir: string,
  options: { load?: boolean; mcpHttp?: boolean; offers?: boolean | 'as-options'; auth?: boolean } = {},
): { command: string; args: string[]; env: Record<string, string> } {
  return {
    command: process.execPath,
    args: [
      ...testProgramArgs('src-main/testing/acp-test-agent.ts'),
      ...(options.load === false ? ['--no-load'] : []),
      ...(options.mcpHttp === true ? ['--mcp-http'] : []),
      ...(options.offers === true ? ['--offers'] : options.offers === 'as-options' ? ['--offers-as-options'] : []),
      ...(options.auth === true ? ['--auth'] : []),
    ],
    env: { ACP_TEST_AGENT_STATE: stateDir },
  };
}

/** The test agents started with `stateDir` that are still running. */
export function runningTestAgents(stateDir: string): number[] {
  let pids: number[];
  try {
    pids = readFileSync(`${stateDir}/pids`, 'utf8')
      .split('\n')
      .filter((line) => line !== '')
      .map(Number);
  } catch {
    return [];
  }
  return pids.filter((pid) => !processGone(pid));
}
