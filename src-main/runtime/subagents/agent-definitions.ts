import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type {
  AgentDefinitionSource,
  AgentDefinitionSummary,
  BrokenAgentDefinition,
} from '../../../src-shared/agent-model';
import { parseAgentFile } from './agent-file';

/** An agent a parent can spawn: its summary plus the instructions its child session runs with. */
export interface AgentDefinition extends AgentDefinitionSummary {
  readonly systemPrompt: string;
  /** Only tools that change nothing (the built-in `explore`). */
  readonly readOnly: boolean;
}

export const BUILTIN_AGENTS: readonly AgentDefinition[] = [
  {
    id: 'explore',
    name: 'Explore',
    description: 'Reads and searches the workspace to answer a question; changes nothing.',
    source: 'builtin',
    tools: null,
    model: null,
    readOnly: true,
    systemPrompt:
      'You are an explore agent started by another agent. Investigate the task you were given using read-only tools ' +
      '(list, read and search files). Do not change anything. Finish with a short, factual report of what you found, ' +
      'naming files and lines, because that report is all your parent sees.',
  },
  {
    id: 'worker',
    name: 'Worker',
    description: 'Carries out a well-defined piece of work with the same tools as its parent.',
    source: 'builtin',
    tools: null,
    model: null,
    readOnly: false,
    systemPrompt:
      'You are a worker agent started by another agent. Do exactly the task you were given, with the tools you have, ' +
      'and nothing beyond it. Finish with a short report of what you did and anything left undone, because that ' +
      'report is all your parent sees.',
  },
];

const ID_PATTERN = /^[a-z0-9][a-z0-9_-]{0,63}$/;

export interface AgentCatalog {
  readonly definitions: readonly AgentDefinition[];
  readonly broken: readonly BrokenAgentDefinition[];
}

/**
 * The agents a session can spawn: the built-in ones, then the person's own from
 * `<data dir>/agents/<id>.md` and `<workspace>/.agents/agents/<id>.md` (a workspace's definition
 * replaces a data directory's of the same id; neither replaces a built-in). A file that is not a
 * valid agent is listed as broken with the reason.
 */
export function loadAgentCatalog(dataDir: string, workspacePath: string | null): AgentCatalog {
  const byId = new Map<string, AgentDefinition>(BUILTIN_AGENTS.map((definition) => [definition.id, definition]));
  const broken: BrokenAgentDefinition[] = [];
  const folders: [string, AgentDefinitionSource][] = [[join(dataDir, 'agents'), 'data_dir']];
  if (workspacePath !== null) folders.push([join(workspacePath, '.agents', 'agents'), 'workspace']);
  for (const [folder, source] of folders) {
    for (const file of markdownFiles(folder)) {
      const id = file.slice(0, -'.md'.length);
      const path = join(folder, file);
      if (!ID_PATTERN.test(id)) {
        broken.push({
          id,
          path,
          reason: 'The file name must be the agent id: lower-case letters, digits, "-" or "_".',
        });
        continue;
      }
      if (byId.get(id)?.source === 'builtin') {
        broken.push({ id, path, reason: `"${id}" is a built-in agent; give yours another id.` });
        continue;
      }
      let text: string;
      try {
        text = readFileSync(path, 'utf8');
      } catch (error) {
        broken.push({
          id,
          path,
          reason: `The file could not be read: ${error instanceof Error ? error.message : String(error)}`,
        });
        continue;
      }
      const parsed = parseAgentFile(text);
      if ('error' in parsed) {
        broken.push({ id, path, reason: parsed.error });
        continue;
      }
      byId.set(id, { id, source, readOnly: false, ...parsed });
    }
  }
  return { definitions: [...byId.values()], broken };
}

function markdownFiles(folder: string): string[] {
  try {
    return readdirSync(folder, { withFileTypes: true })
      .filter((entry) => entry.isFile() && entry.name.endsWith('.md'))
      .map((entry) => entry.name)
      .sort();
  } catch {
    return [];
  }
}
