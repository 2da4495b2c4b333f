import { existsSync, mkdirSync, readdirSync, readlinkSync, symlinkSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AcpPresetKind } from '../../src-shared/connection-model';
import type { AgentModel } from './agent-model';
import { asRecord } from './provider-servers/json-record';
import {
  startAnthropicServer,
  startOpenAIChatServer,
  type ProviderTestServer,
  type RecordedRequest,
} from './provider-servers';

/**
 * The real ACP agents Cairn's tests drive offline, installed from npm into test-agents/ (`npm run
 * test-agents`; not part of Cairn's own install, they weigh ~750 MB): Claude
 * (`@agentclientprotocol/claude-agent-acp`) against Cairn's fake Anthropic Messages server, OpenCode
 * (`opencode-ai`) against its fake OpenAI-compatible server.
 */
export interface RealAgent {
  readonly kind: AcpPresetKind;
  readonly model: string | null;
  startServer(answer: AgentModel['answer']): Promise<ProviderTestServer>;
  /** The agent's own file-writing tool call, as its model asks for it. */
  writeCall(path: string, content: string): { id: string; name: string; input: unknown };
  /** The agent's own shell tool call (Claude's Bash, OpenCode's bash), run inside the agent's process. */
  shellCall(id: string, command: string): { id: string; name: string; input: unknown };
}

export const REAL_AGENTS: readonly RealAgent[] = [
  {
    kind: 'claude',
    model: null,
    startServer: (answer) => startAnthropicServer({ fallbackReply: answer }),
    writeCall: (path, content) => ({ id: 'toolu_write_1', name: 'Write', input: { file_path: path, content } }),
    shellCall: (id, command) => ({ id: `toolu_${id}`, name: 'Bash', input: { command, description: 'Run a command' } }),
  },
  {
    kind: 'opencode',
    model: 'heron-model',
    startServer: (answer) => startOpenAIChatServer({ fallbackReply: answer }),
    writeCall: (path, content) => ({ id: 'call_write_1', name: 'write', input: { filePath: path, content } }),
    shellCall: (id, command) => ({ id: `call_${id}`, name: 'bash', input: { command, description: 'Run a command' } }),
  },
];

export const TEST_AGENTS = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', 'test-agents', 'node_modules');

/**
 * Whether the real agents are installed; when they are not, says the tests skip, or throws where
 * CAIRN_REAL_AGENTS=required (CI installs them, so there a missing install fails, never skips).
 */
export function realAgentsInstalled(): boolean {
  const installed = existsSync(TEST_AGENTS);
  if (!installed && process.env.CAIRN_REAL_AGENTS === 'required')
    throw new Error(`The real ACP agents are not installed in ${TEST_AGENTS}: run npm run test-agents`);
  if (!installed)
    console.warn(`Skipping the real ACP agents: not installed in ${TEST_AGENTS} (npm run test-agents installs them).`);
  return installed;
}

/** Links the installed agents into `<dataDir>/agents`, where Cairn looks for agents installed on demand. */
export function linkRealAgents(dataDir: string): void {
  mkdirSync(join(dataDir, 'agents'), { recursive: true });
  symlinkSync(TEST_AGENTS, join(dataDir, 'agents', 'node_modules'));
}

/** The processes whose working folder is `folder` or inside it (the agent and what it started there); Linux's /proc. */
export function processesIn(folder: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cwd = readlinkSync(`/proc/${entry}/cwd`);
      if (cwd === folder || cwd.startsWith(`${folder}/`)) pids.push(Number(entry));
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return pids;
}

/**
 * The texts of the assistant turns a model call carries as the conversation so far (Anthropic's
 * content blocks or OpenAI's content string): what the agent itself remembers, not what a prompt says.
 */
export function assistantTextsIn(request: RecordedRequest): string[] {
  const messages = asRecord(request.body).messages;
  if (!Array.isArray(messages)) return [];
  return messages.flatMap((message) => {
    const record = asRecord(message);
    if (record.role !== 'assistant') return [];
    if (typeof record.content === 'string') return [record.content];
    if (!Array.isArray(record.content)) return [];
    return record.content.flatMap((part) => {
      const block = asRecord(part);
      return block.type === 'text' && typeof block.text === 'string' ? [block.text] : [];
    });
  });
}
