import { existsSync, mkdirSync, mkdtempSync, readdirSync, readlinkSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AcpPresetKind } from '../../src-shared/connection-model';
import type { AgentModel } from './agent-model';
import { asRecord } from './provider-servers/json-record';
import {
  startAnthropicServer,
  startGeminiServer,
  startOpenAIChatServer,
  type ProviderTestServer,
  type RecordedRequest,
} from './provider-servers';

/**
 * The real ACP agents Cairn's tests drive offline, installed from npm into test-agents/ (`npm run
 * test-agents`; not part of Cairn's own install, they weigh ~850 MB): Claude
 * (`@agentclientprotocol/claude-agent-acp`) against Cairn's fake Anthropic Messages server, OpenCode
 * (`opencode-ai`) against its fake OpenAI-compatible server, Gemini CLI (`@google/gemini-cli --acp`)
 * against its fake Gemini API server.
 */
export interface RealAgent {
  readonly kind: AcpPresetKind;
  readonly model: string | null;
  /** The header that carries the connection's key to the provider, as the agent sends it. */
  readonly keyHeader: Readonly<Record<string, string>>;
  startServer(answer: AgentModel['answer']): Promise<ProviderTestServer>;
  /**
   * Whether the agent's file-writing tool can create a file through Cairn's `fs/*`. Gemini CLI 0.61's
   * cannot: it reads the file first, and takes the client's "Resource not found" answer (which its
   * ACP SDK rejects with as a plain object, not an Error) for a failure rather than a new file. Its
   * tests write over a file that exists.
   */
  readonly createsFiles: boolean;
  /**
   * Whether a new agent process always reloads an earlier session (`session/load`). Gemini CLI 0.61
   * declares `loadSession` but often answers "No previous sessions found for this project" for a
   * session it saved (its chat file is there), and sometimes reloads it: Cairn starts a new agent
   * session with a summary of its record when it does not, and says so.
   */
  readonly reloadsSessions: boolean;
  /** The agent's own file-writing tool call, as its model asks for it. */
  writeCall(path: string, content: string): { id: string; name: string; input: unknown };
  /** The agent's own shell tool call (Claude's Bash, OpenCode's bash), run inside the agent's process. */
  shellCall(id: string, command: string): { id: string; name: string; input: unknown };
}

export const REAL_AGENTS: readonly RealAgent[] = [
  {
    kind: 'claude',
    model: null,
    keyHeader: { 'x-api-key': 'test-key' },
    createsFiles: true,
    reloadsSessions: true,
    startServer: (answer) => startAnthropicServer({ fallbackReply: answer }),
    writeCall: (path, content) => ({ id: 'toolu_write_1', name: 'Write', input: { file_path: path, content } }),
    shellCall: (id, command) => ({ id: `toolu_${id}`, name: 'Bash', input: { command, description: 'Run a command' } }),
  },
  {
    kind: 'opencode',
    model: 'heron-model',
    keyHeader: { authorization: 'Bearer test-key' },
    createsFiles: true,
    reloadsSessions: true,
    startServer: (answer) => startOpenAIChatServer({ fallbackReply: answer }),
    writeCall: (path, content) => ({ id: 'call_write_1', name: 'write', input: { filePath: path, content } }),
    shellCall: (id, command) => ({ id: `call_${id}`, name: 'bash', input: { command, description: 'Run a command' } }),
  },
  {
    kind: 'gemini',
    // A named model: with none (its "auto"), the CLI first asks a small model to route each prompt.
    model: 'gemini-2.5-flash',
    keyHeader: { 'x-goog-api-key': 'test-key' },
    createsFiles: false,
    reloadsSessions: false,
    startServer: (answer) => startGeminiServer({ fallbackReply: answer }),
    writeCall: (path, content) => ({ id: 'call_write_1', name: 'write_file', input: { file_path: path, content } }),
    shellCall: (id, command) => ({
      id: `call_${id}`,
      name: 'run_shell_command',
      input: { command, description: 'Run a command' },
    }),
  },
];

/**
 * A fresh HOME for an agent, so nothing of this machine's leaks in. Gemini CLI's there has its
 * settings with usage statistics, telemetry and update checks off: it then sends nothing but its
 * model calls (to the loopback server).
 */
export function agentHome(kind: AcpPresetKind): string {
  const home = mkdtempSync(join(tmpdir(), `cairn-${kind}-home-`));
  prepareAgentHome(kind, home);
  return home;
}

/** Writes what `agentHome` writes into a HOME a test made itself. */
export function prepareAgentHome(kind: AcpPresetKind, home: string): void {
  if (kind !== 'gemini') return;
  mkdirSync(join(home, '.gemini'), { recursive: true });
  writeFileSync(join(home, '.gemini', 'settings.json'), JSON.stringify(GEMINI_OFFLINE_SETTINGS, null, 2));
}

export const GEMINI_OFFLINE_SETTINGS = {
  privacy: { usageStatisticsEnabled: false },
  telemetry: { enabled: false },
  general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
};

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
 * content blocks, OpenAI's content string, Gemini's `model` contents' text parts): what the agent
 * itself remembers, not what a prompt says.
 */
export function assistantTextsIn(request: RecordedRequest): string[] {
  const contents = asRecord(request.body).contents;
  if (Array.isArray(contents))
    return contents.flatMap((content) => {
      const record = asRecord(content);
      if (record.role !== 'model' || !Array.isArray(record.parts)) return [];
      return record.parts.flatMap((part) => {
        const text = asRecord(part).text;
        return typeof text === 'string' && asRecord(part).thought !== true ? [text] : [];
      });
    });
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
