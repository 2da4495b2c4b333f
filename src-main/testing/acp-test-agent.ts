import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import {
  agent,
  ndJsonStream,
  RequestError,
  type AgentContext,
  type McpServer,
  type NewSessionResponse,
  type PlanEntryStatus,
  type PromptResponse,
  type RequestPermissionRequest,
  type SessionUpdate,
  type StopReason,
} from '@agentclientprotocol/sdk';

/**
 * A minimal ACP agent for Cairn's tests, written with the SDK's agent side. Each prompt is a script,
 * one directive per line (anything else is echoed back as text):
 *
 *   text <words>            an agent message chunk
 *   think <words>           a thought chunk
 *   slow <n> <ms>           n message chunks `chunk-i `, `ms` apart (stops early when cancelled)
 *   tool <id> <title>       a tool call, in progress, then completed
 *   write <path> <content>  asks permission (a tool call with a diff), then writes the file through the client's fs
 *   read <path>             reads a file through the client's fs and says what it holds
 *   hang                    waits until cancelled, then ends with `cancelled`
 *   deaf                    waits forever, even through session/cancel
 *   crash                   exits with code 3 in the middle of the turn
 *   refuse                  ends the turn with `refusal`
 *   usage <used> <size>     a usage update
 *   plan <status> <words>; <status> <words>…   a plan (entries of priority medium)
 *   sh <script>             opens a terminal (`sh -c <script>`), waits for it to exit, says `exit <code>: <output>`, releases it
 *   tokens <in> <out>       the turn's answer reports this token usage (`PromptResponse.usage`)
 *   recall                  says the first prompt this agent session remembers (`session/load` restores them)
 *   title <words>           titles the session (`session_info_update`)
 *   commands <name>[:<hint>] …   replaces the session's commands (`available_commands_update`)
 *   cost <usd> <used> <size>     a usage update with the session's cumulative cost
 *   settings                says its mode and config options as they stand (`mode=… model=… effort=…`)
 *   …they allowed "Write <path>"…   (Cairn's words after a restart) writes what the earlier `write <path>` asked to
 *
 * Sessions are kept in `$ACP_TEST_AGENT_STATE/<id>.jsonl` (their updates), so `session/load` after a
 * restart replays them. The MCP servers each `session/new` and `session/load` passed are recorded in
 * `$ACP_TEST_AGENT_STATE/mcp.jsonl`, one line per request. `--no-load` makes it an agent without `loadSession`.
 * `--offers` makes it offer what Claude's agent does: slash commands (sent just after `session/new` and
 * `session/load`), session modes (`default`, `acceptEdits`, `plan`, `bypassPermissions`; it starts in
 * `acceptEdits`) and config options (`model`, `effort`), each `session/set_*` recorded in
 * `$ACP_TEST_AGENT_STATE/settings.jsonl`. It writes its pid to
 * `$ACP_TEST_AGENT_STATE/pids` so tests can find it.
 *
 * `--auth` makes it an agent that wants the person signed in: it declares an agent sign-in (`browser`,
 * by `authenticate`) and, to a client that runs terminal sign-ins, a terminal one (`code`: args
 * `--login`, env `ACP_TEST_AGENT_LOGIN=terminal`); it refuses `session/new` and `session/prompt` with
 * `auth_required` until `$ACP_TEST_AGENT_STATE/credential` exists. `authenticate` writes it (fails when
 * `auth-refuse` exists there, waits for ever when `auth-hang` does). `--login` (the terminal sign-in,
 * no ACP) records its environment in `login-env.json`, starts a helper (`sleep`) in its process group,
 * writes both pids to `login-pids`, asks for a code on stdin, and with `1234` writes the credential and
 * exits 0; any other code exits 2.
 */

const stateDir = process.env.ACP_TEST_AGENT_STATE ?? join(process.cwd(), '.acp-test-agent');
mkdirSync(stateDir, { recursive: true });
const loginMode = process.argv.includes('--login');
if (!loginMode) appendFileSync(join(stateDir, 'pids'), `${process.pid}\n`);
const wantsAuth = process.argv.includes('--auth');
const credentialFile = join(stateDir, 'credential');
const signedIn = () => !wantsAuth || existsSync(credentialFile);
const canLoad = !process.argv.includes('--no-load');
const offers = process.argv.includes('--offers') || process.argv.includes('--offers-as-options');
/** `--offers-as-options`: its mode only as a config option (category `mode`), without session modes. */
const modesAsOptions = process.argv.includes('--offers-as-options');

/** Each session's prompts, as this process knows them (`session/load` restores them from the history file). */
const sessions = new Map<string, string[]>();
const cancelled = new Set<string>();
/** Token usage a `tokens` directive set for the session's current turn, reported with its answer. */
const tokens = new Map<string, { inputTokens: number; outputTokens: number }>();
let sessionCount = 0;

/** With `--offers`: each session's mode and config options. */
interface Settings {
  mode: string;
  model: string;
  effort: string;
}
const settings = new Map<string, Settings>();
const defaultSettings = (): Settings => ({ mode: 'acceptEdits', model: 'sonnet', effort: 'medium' });
const MODES = [
  { id: 'default', name: 'Manual', description: 'Always ask before making changes' },
  { id: 'acceptEdits', name: 'Accept edits', description: 'Automatically accept all file edits' },
  { id: 'plan', name: 'Plan', description: 'Create a plan before making changes' },
  { id: 'bypassPermissions', name: 'Bypass permissions', description: 'Accepts all permissions' },
];

function offered(sessionId: string): Pick<NewSessionResponse, 'modes' | 'configOptions'> {
  if (!offers) return {};
  const current = settings.get(sessionId) ?? defaultSettings();
  settings.set(sessionId, current);
  return {
    ...(modesAsOptions ? {} : { modes: { currentModeId: current.mode, availableModes: MODES } }),
    configOptions: [
      {
        id: 'mode',
        name: 'Mode',
        category: 'mode',
        type: 'select',
        currentValue: current.mode,
        options: MODES.map((mode) => ({ value: mode.id, name: mode.name })),
      },
      {
        id: 'model',
        name: 'Model',
        category: 'model',
        type: 'select',
        currentValue: current.model,
        options: [
          { value: 'sonnet', name: 'Sonnet' },
          { value: 'opus', name: 'Opus' },
        ],
      },
      {
        id: 'effort',
        name: 'Effort',
        category: 'thought_level',
        type: 'select',
        currentValue: current.effort,
        options: [
          { value: 'low', name: 'Low' },
          { value: 'medium', name: 'Medium' },
          { value: 'high', name: 'High' },
        ],
      },
    ],
  };
}

function recordSetting(request: Record<string, unknown>): void {
  appendFileSync(join(stateDir, 'settings.jsonl'), `${JSON.stringify(request)}\n`);
}

/** With `--offers`, the session's commands, sent as Claude's agent does: just after the session starts or loads. */
function announceCommands(client: AgentContext, sessionId: string): void {
  if (!offers) return;
  setTimeout(() => {
    void client.notify('session/update', {
      sessionId,
      update: {
        sessionUpdate: 'available_commands_update',
        availableCommands: [
          { name: 'review', description: 'Review the changes', input: { hint: 'what to focus on' } },
          { name: 'compact', description: 'Compact the conversation' },
        ],
      },
    });
  }, 10);
}

function historyFile(sessionId: string): string {
  return join(stateDir, `${sessionId.replace(/[^A-Za-z0-9_-]/g, '_')}.jsonl`);
}

async function send(client: AgentContext, sessionId: string, update: SessionUpdate): Promise<void> {
  appendFileSync(historyFile(sessionId), `${JSON.stringify(update)}\n`);
  await client.notify('session/update', { sessionId, update });
}

function recordMcp(method: string, servers: readonly McpServer[]): void {
  appendFileSync(join(stateDir, 'mcp.jsonl'), `${JSON.stringify({ method, servers })}\n`);
}

const say = (text: string): SessionUpdate => ({
  sessionUpdate: 'agent_message_chunk',
  content: { type: 'text', text },
});

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function untilCancelled(sessionId: string): Promise<void> {
  while (!cancelled.has(sessionId)) await wait(20);
}

/** Runs one directive; a stop reason ends the turn early. */
async function directive(client: AgentContext, sessionId: string, line: string): Promise<StopReason | null> {
  const [word = '', ...rest] = line.trim().split(' ');
  const tail = rest.join(' ');
  switch (word) {
    case 'text':
      await send(client, sessionId, say(tail));
      return null;
    case 'think':
      await send(client, sessionId, { sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: tail } });
      return null;
    case 'slow': {
      const count = Number(rest[0] ?? 10);
      const gap = Number(rest[1] ?? 100);
      for (let index = 0; index < count; index += 1) {
        if (cancelled.has(sessionId)) return 'cancelled';
        await send(client, sessionId, say(`chunk-${index} `));
        await wait(gap);
      }
      return cancelled.has(sessionId) ? 'cancelled' : null;
    }
    case 'tool': {
      const [toolCallId = 'tool-1', ...title] = rest;
      await send(client, sessionId, {
        sessionUpdate: 'tool_call',
        toolCallId,
        title: title.join(' ') || 'A tool',
        kind: 'other',
        status: 'in_progress',
        rawInput: { line },
      });
      await send(client, sessionId, {
        sessionUpdate: 'tool_call_update',
        toolCallId,
        status: 'completed',
        content: [{ type: 'content', content: { type: 'text', text: 'tool output' } }],
      });
      return null;
    }
    case 'write': {
      const [path = 'out.txt', ...words] = rest;
      const content = words.join(' ');
      const absolute = join(process.cwd(), path);
      const toolCallId = `write-${path}`;
      const diff = { type: 'diff' as const, path: absolute, oldText: null, newText: content };
      await send(client, sessionId, {
        sessionUpdate: 'tool_call',
        toolCallId,
        title: `Write ${path}`,
        kind: 'edit',
        status: 'pending',
        content: [diff],
        rawInput: { path, content },
      });
      const request: RequestPermissionRequest = {
        sessionId,
        toolCall: { toolCallId, title: `Write ${path}`, kind: 'edit', content: [diff] },
        options: [
          { optionId: 'once', name: 'Allow once', kind: 'allow_once' },
          { optionId: 'always', name: 'Always allow', kind: 'allow_always' },
          { optionId: 'no', name: 'Reject', kind: 'reject_once' },
        ],
      };
      const answer = await client.request('session/request_permission', request);
      if (answer.outcome.outcome === 'cancelled') return 'cancelled';
      if (answer.outcome.optionId === 'no') {
        await send(client, sessionId, { sessionUpdate: 'tool_call_update', toolCallId, status: 'failed' });
        const reason = answer._meta?.reason;
        await send(
          client,
          sessionId,
          say(`Rejected writing ${path}${typeof reason === 'string' ? `: ${reason}` : '.'}`),
        );
        return null;
      }
      try {
        await client.request('fs/write_text_file', { sessionId, path: absolute, content });
        await send(client, sessionId, { sessionUpdate: 'tool_call_update', toolCallId, status: 'completed' });
        await send(client, sessionId, say(`Wrote ${path} (${answer.outcome.optionId}).`));
      } catch (error) {
        await send(client, sessionId, { sessionUpdate: 'tool_call_update', toolCallId, status: 'failed' });
        await send(
          client,
          sessionId,
          say(`Could not write ${path}: ${error instanceof Error ? error.message : JSON.stringify(error)}`),
        );
      }
      return null;
    }
    case 'read': {
      const path = rest[0] ?? 'out.txt';
      try {
        const read = await client.request('fs/read_text_file', { sessionId, path: join(process.cwd(), path) });
        await send(client, sessionId, say(`${path} holds: ${read.content}`));
      } catch (error) {
        await send(
          client,
          sessionId,
          say(`Could not read ${path}: ${error instanceof Error ? error.message : JSON.stringify(error)}`),
        );
      }
      return null;
    }
    case 'hang':
      await untilCancelled(sessionId);
      return 'cancelled';
    case 'deaf':
      await new Promise(() => {});
      return null;
    case 'crash':
      process.exit(3);
      return null;
    case 'refuse':
      return 'refusal';
    case 'recall': {
      const prompts = sessions.get(sessionId) ?? [];
      await send(
        client,
        sessionId,
        say(prompts.length > 1 ? `I remember: ${prompts[0]?.split('\n')[0] ?? ''}` : 'I remember nothing.'),
      );
      return null;
    }
    case 'plan': {
      const entries = tail.split(';').map((part) => {
        const [status = 'pending', ...words] = part.trim().split(' ');
        return { content: words.join(' '), priority: 'medium' as const, status: status as PlanEntryStatus };
      });
      await send(client, sessionId, { sessionUpdate: 'plan', entries });
      return null;
    }
    case 'sh':
      return terminal(client, sessionId, tail);
    case 'title':
      await send(client, sessionId, { sessionUpdate: 'session_info_update', title: tail });
      return null;
    case 'commands':
      await send(client, sessionId, {
        sessionUpdate: 'available_commands_update',
        availableCommands: rest.map((entry) => {
          const [name = '', hint] = entry.split(':');
          return { name, description: `The ${name} command`, ...(hint === undefined ? {} : { input: { hint } }) };
        }),
      });
      return null;
    case 'cost':
      await send(client, sessionId, {
        sessionUpdate: 'usage_update',
        used: Number(rest[1] ?? 0),
        size: Number(rest[2] ?? 0),
        cost: { amount: Number(rest[0] ?? 0), currency: 'USD' },
      });
      return null;
    case 'settings': {
      const current = settings.get(sessionId) ?? defaultSettings();
      await send(client, sessionId, say(`mode=${current.mode} model=${current.model} effort=${current.effort}`));
      return null;
    }
    case 'tokens':
      tokens.set(sessionId, { inputTokens: Number(rest[0] ?? 0), outputTokens: Number(rest[1] ?? 0) });
      return null;
    case 'usage':
      await send(client, sessionId, {
        sessionUpdate: 'usage_update',
        used: Number(rest[0] ?? 0),
        size: Number(rest[1] ?? 0),
      });
      return null;
    default: {
      const allowed = /they allowed "Write (\S+)"/.exec(line);
      if (allowed !== null) return writeAllowed(client, sessionId, allowed[1] ?? '');
      await send(client, sessionId, say(line));
      return null;
    }
  }
}

/** Runs a script in a terminal of the client's; ends the turn `cancelled` when it was cancelled meanwhile. */
async function terminal(client: AgentContext, sessionId: string, script: string): Promise<StopReason | null> {
  let terminalId: string;
  try {
    ({ terminalId } = await client.request('terminal/create', { sessionId, command: 'sh', args: ['-c', script] }));
  } catch (error) {
    await send(
      client,
      sessionId,
      say(`No terminal: ${error instanceof Error ? error.message : JSON.stringify(error)}`),
    );
    return null;
  }
  const exit = await client.request('terminal/wait_for_exit', { sessionId, terminalId });
  const { output } = await client.request('terminal/output', { sessionId, terminalId });
  await client.request('terminal/release', { sessionId, terminalId });
  if (cancelled.has(sessionId)) return 'cancelled';
  await send(client, sessionId, say(`exit ${exit.exitCode ?? exit.signal ?? '?'}: ${output}`));
  return null;
}

/** Writes what an earlier `write <path> …` of this session asked for: the person allowed it while Cairn was down. */
async function writeAllowed(client: AgentContext, sessionId: string, path: string): Promise<null> {
  const asked = (sessions.get(sessionId) ?? [])
    .flatMap((prompt) => prompt.split('\n'))
    .find((line) => line.startsWith(`write ${path} `));
  if (asked === undefined) {
    await send(client, sessionId, say(`I do not remember asking to write ${path}.`));
    return null;
  }
  const content = asked.slice(`write ${path} `.length);
  try {
    await client.request('fs/write_text_file', { sessionId, path: join(process.cwd(), path), content });
    await send(client, sessionId, say(`Wrote ${path} after the restart.`));
  } catch (error) {
    await send(
      client,
      sessionId,
      say(`Could not write ${path}: ${error instanceof Error ? error.message : JSON.stringify(error)}`),
    );
  }
  return null;
}

/** `--login`: the terminal sign-in, an interactive program on stdin and stdout. */
async function terminalLogin(): Promise<never> {
  writeFileSync(join(stateDir, 'login-env.json'), JSON.stringify(process.env));
  const helper = spawn('sleep', ['600'], { stdio: 'ignore' });
  appendFileSync(join(stateDir, 'login-pids'), `${process.pid}\n${helper.pid ?? ''}\n`);
  process.stdout.write('To sign in, open https://login.example.invalid/device and enter the code it shows.\nCode: ');
  const lines = createInterface({ input: process.stdin });
  const code = await new Promise<string>((resolve) => lines.once('line', resolve).once('close', () => resolve('')));
  helper.kill();
  if (code.trim() !== '1234') {
    process.stderr.write('That code is not right: not signed in.\n');
    process.exit(2);
  }
  writeFileSync(credentialFile, 'terminal\n');
  process.stdout.write('Signed in.\n');
  process.exit(0);
}

if (loginMode) await terminalLogin();

const connection = agent({ name: 'cairn-acp-test-agent' })
  .onRequest('initialize', ({ params }) => ({
    protocolVersion: 1,
    agentCapabilities: {
      loadSession: canLoad,
      promptCapabilities: { image: false, audio: false, embeddedContext: false },
      mcpCapabilities: { http: process.argv.includes('--mcp-http'), sse: false },
    },
    agentInfo: { name: 'cairn-acp-test-agent', title: 'Cairn ACP test agent', version: '1.0.0' },
    authMethods: wantsAuth
      ? [
          { id: 'browser', name: 'Sign in with your browser', description: 'The agent opens a browser page' },
          ...(params.clientCapabilities?.auth?.terminal === true
            ? [
                {
                  id: 'code',
                  name: 'Sign in with a code',
                  description: 'Enter the code from the sign-in page',
                  type: 'terminal' as const,
                  args: ['--login'],
                  env: { ACP_TEST_AGENT_LOGIN: 'terminal', CAIRN_TOKEN: 'from-the-agent' },
                },
              ]
            : []),
        ]
      : [],
  }))
  .onRequest('authenticate', async ({ params }) => {
    if (params.methodId !== 'browser') throw RequestError.invalidParams(undefined, `no method ${params.methodId}`);
    if (existsSync(join(stateDir, 'auth-hang'))) await new Promise(() => {});
    if (existsSync(join(stateDir, 'auth-refuse')))
      throw RequestError.internalError(undefined, 'The browser sign-in was declined');
    writeFileSync(credentialFile, 'browser\n');
    return {};
  })
  .onRequest('session/new', ({ params, client }) => {
    if (!signedIn()) throw RequestError.authRequired(undefined, 'Sign in to the test agent first');
    recordMcp('session/new', params.mcpServers);
    sessionCount += 1;
    const sessionId = `test-${process.pid}-${sessionCount}`;
    sessions.set(sessionId, []);
    announceCommands(client, sessionId);
    return { sessionId, ...offered(sessionId) };
  })
  .onRequest('session/set_mode', ({ params }) => {
    recordSetting({ method: 'session/set_mode', modeId: params.modeId });
    const current = settings.get(params.sessionId);
    if (current === undefined || !MODES.some((mode) => mode.id === params.modeId))
      throw RequestError.invalidParams(undefined, `no mode ${params.modeId}`);
    current.mode = params.modeId;
    return {};
  })
  .onRequest('session/set_config_option', ({ params }) => {
    recordSetting({ method: 'session/set_config_option', configId: params.configId, value: params.value });
    const current = settings.get(params.sessionId);
    if (current === undefined || typeof params.value !== 'string')
      throw RequestError.invalidParams(undefined, 'no such session or value');
    if (params.configId === 'mode') current.mode = params.value;
    else if (params.configId === 'model') current.model = params.value;
    else if (params.configId === 'effort') current.effort = params.value;
    else throw RequestError.invalidParams(undefined, `no option ${params.configId}`);
    return { configOptions: offered(params.sessionId).configOptions ?? [] };
  })
  .onRequest('session/load', async ({ params, client }) => {
    if (!canLoad) throw RequestError.methodNotFound('session/load');
    recordMcp('session/load', params.mcpServers);
    const file = historyFile(params.sessionId);
    if (!existsSync(file)) throw RequestError.resourceNotFound(params.sessionId);
    const prompts: string[] = [];
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      if (line === '') continue;
      const update = JSON.parse(line) as SessionUpdate;
      if (update.sessionUpdate === 'user_message_chunk' && update.content.type === 'text')
        prompts.push(update.content.text);
      await client.notify('session/update', { sessionId: params.sessionId, update });
    }
    sessions.set(params.sessionId, prompts);
    announceCommands(client, params.sessionId);
    return offered(params.sessionId);
  })
  .onRequest('session/prompt', async ({ params, client }) => {
    if (!sessions.has(params.sessionId)) throw RequestError.resourceNotFound(params.sessionId);
    if (!signedIn()) throw RequestError.authRequired(undefined, 'Your sign-in to the test agent ended');
    cancelled.delete(params.sessionId);
    tokens.delete(params.sessionId);
    const text = params.prompt.map((block) => (block.type === 'text' ? block.text : '')).join('\n');
    sessions.get(params.sessionId)?.push(text);
    appendFileSync(
      historyFile(params.sessionId),
      `${JSON.stringify({ sessionUpdate: 'user_message_chunk', content: { type: 'text', text } })}\n`,
    );
    for (const line of text.split('\n')) {
      if (line.trim() === '') continue;
      const stop = await directive(client, params.sessionId, line);
      if (stop !== null) return { stopReason: stop };
      if (cancelled.has(params.sessionId)) return { stopReason: 'cancelled' };
    }
    const used = tokens.get(params.sessionId);
    // `usage` is in the SDK's unstable schema (not the stable PromptResponse type): sent as an agent reporting it would.
    const answer: PromptResponse = { stopReason: 'end_turn' };
    return used === undefined
      ? answer
      : Object.assign(answer, { usage: { ...used, totalTokens: used.inputTokens + used.outputTokens } });
  })
  .onNotification('session/cancel', ({ params }) => {
    cancelled.add(params.sessionId);
  })
  .connect(ndJsonStream(Writable.toWeb(process.stdout), Readable.toWeb(process.stdin) as ReadableStream<Uint8Array>));
// Like a real agent, it ends when its client goes (stdin closed), even in the middle of a turn.
void connection.closed.then(() => process.exit(0));
