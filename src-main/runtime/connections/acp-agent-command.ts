import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';
import type { AcpAgentCommand } from '../../../src-shared/connection-model';

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
