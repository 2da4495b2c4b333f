import { isAbsolute, relative, resolve } from 'node:path';
import type { CreateTerminalRequest, TerminalExitStatus, TerminalOutputResponse } from '@agentclientprotocol/sdk';
import type { ShellOutputChunk, ShellRunner, ShellRunResult } from '../../shell/shell-runner';
import type { PreparedSandbox } from '../../sandbox/sandbox-service';
import type { AgentEvent } from '../../contract/agent-backend';
import type { BridgedPermission } from './acp-permissions';

/** The tool name a terminal shows under in the transcript: Cairn's shell view (a live terminal). */
export const ACP_TERMINAL_TOOL = 'run_shell';

/** Where a terminal's shell run belongs: the session's workspace and the run asking for it. */
export interface TerminalPlace {
  readonly sessionId: string;
  readonly turnId: string;
  readonly runId: string;
  readonly workspace: string;
}

/** A terminal the agent asked for, as Cairn runs it and shows it. */
export interface TerminalCommand {
  readonly toolCallId: string;
  readonly command: string;
  readonly cwd: string;
}

/** Bytes of output kept for the agent when it names no limit. */
const DEFAULT_OUTPUT_LIMIT = 1024 * 1024;
/** A terminal runs at most this long (the agent kills it sooner with terminal/kill). */
const TERMINAL_TIMEOUT_MS = 60 * 60 * 1000;

interface LiveTerminal {
  readonly toolCallId: string;
  readonly limit: number;
  output: string;
  truncated: boolean;
  shellRunId: string | null;
  exit: TerminalExitStatus | null;
  readonly done: Promise<ShellRunResult>;
  readonly abort: AbortController;
}

/**
 * The terminals one ACP agent session opened (`terminal/*`), each a Cairn shell run in its own
 * process group: output kept for the agent (the last `outputByteLimit` bytes) and streamed to the
 * transcript's terminal; killed by terminal/kill, terminal/release, or Stop of the turn.
 */
export class AcpTerminals {
  private readonly terminals = new Map<string, LiveTerminal>();
  private count = 0;

  constructor(
    private readonly runner: ShellRunner,
    private readonly onOutput: (sessionId: string, chunk: ShellOutputChunk) => void,
  ) {}

  /** The command line and folder a request runs as; an error message when its folder is outside the workspace. */
  commandOf(params: CreateTerminalRequest, workspace: string): TerminalCommand | { error: string } {
    const cwd = params.cwd == null || params.cwd === '' ? workspace : resolve(workspace, params.cwd);
    const inside = relative(workspace, cwd);
    if (inside.startsWith('..') || isAbsolute(inside))
      return { error: `The terminal's folder ${cwd} is outside the session's workspace.` };
    const env = (params.env ?? []).map((variable) => `${variable.name}=${shellQuote(variable.value)}`);
    const words = [params.command, ...(params.args ?? [])].map(shellQuote);
    this.count += 1;
    return {
      toolCallId: `terminal-${this.count}`,
      command: [...(env.length === 0 ? [] : ['env', ...env]), ...words].join(' '),
      cwd,
    };
  }

  /** Starts the terminal's shell run; returns its id (the transcript's call id). `onExit` hears how it ended. */
  start(
    place: TerminalPlace,
    command: TerminalCommand,
    outputByteLimit: number | null | undefined,
    onExit: (result: ShellRunResult) => void,
    sandbox: PreparedSandbox | null = null,
  ): string {
    const abort = new AbortController();
    const terminal: LiveTerminal = {
      toolCallId: command.toolCallId,
      limit: outputByteLimit ?? DEFAULT_OUTPUT_LIMIT,
      output: '',
      truncated: false,
      shellRunId: null,
      exit: null,
      abort,
      done: this.runner.run({
        sessionId: place.sessionId,
        turnId: place.turnId,
        runId: place.runId,
        toolCallId: command.toolCallId,
        command: command.command,
        cwd: command.cwd,
        timeoutMs: TERMINAL_TIMEOUT_MS,
        signal: abort.signal,
        ...(sandbox === null ? {} : { wrap: (argv: readonly string[]) => sandbox.wrap(argv) }),
        onStart: (run) => {
          terminal.shellRunId = run.shellRunId;
        },
        onOutput: (chunk) => {
          keep(terminal, chunk.text);
          this.onOutput(place.sessionId, chunk);
        },
      }),
    };
    void terminal.done
      .finally(() => sandbox?.dispose())
      .then(
        (result) => {
          terminal.exit = { exitCode: result.exitCode, signal: result.signal };
          onExit(result);
        },
        () => {
          terminal.exit = { exitCode: null, signal: null };
        },
      );
    this.terminals.set(command.toolCallId, terminal);
    return command.toolCallId;
  }

  output(terminalId: string): TerminalOutputResponse {
    const terminal = this.get(terminalId);
    return {
      output: terminal.output,
      truncated: terminal.truncated,
      ...(terminal.exit === null ? {} : { exitStatus: terminal.exit }),
    };
  }

  async waitForExit(terminalId: string): Promise<TerminalExitStatus> {
    const result = await this.get(terminalId).done;
    return { exitCode: result.exitCode, signal: result.signal };
  }

  /** Kills the terminal's process group; the terminal stays until released. */
  kill(terminalId: string): void {
    this.get(terminalId).abort.abort();
  }

  /** Kills it if still running and forgets it. */
  release(terminalId: string): void {
    this.get(terminalId).abort.abort();
    this.terminals.delete(terminalId);
  }

  /** Kills every terminal (Stop of the turn, the agent process ending) and waits for them to end. */
  async killAll(): Promise<void> {
    const live = [...this.terminals.values()];
    this.terminals.clear();
    for (const terminal of live) terminal.abort.abort();
    await Promise.allSettled(live.map((terminal) => terminal.done));
  }

  private get(terminalId: string): LiveTerminal {
    const terminal = this.terminals.get(terminalId);
    if (terminal === undefined) throw new Error(`No terminal ${terminalId}.`);
    return terminal;
  }
}

/** The approval card for a terminal the agent wants to open: Cairn's shell command card. */
export function terminalPermission(command: TerminalCommand): BridgedPermission {
  const input = { command: command.command, cwd: command.cwd };
  return {
    toolCallId: command.toolCallId,
    toolName: ACP_TERMINAL_TOOL,
    input,
    request: {
      kind: 'permission',
      toolName: ACP_TERMINAL_TOOL,
      summary: `Run ${command.command}`.slice(0, 500),
      preview: { kind: 'command', ...input },
    },
  };
}

/** How a terminal ended, as its shell line's result (the shell run keeps the full record). */
export function terminalResult(toolCallId: string, result: ShellRunResult): AgentEvent {
  const output = {
    status: result.status,
    exitCode: result.exitCode,
    stdout: result.stdoutTail,
    stderr: result.stderrTail,
    shellRunId: result.shellRunId,
  };
  return {
    type: 'tool_result',
    toolCallId,
    toolName: ACP_TERMINAL_TOOL,
    output,
    isError: !(result.status === 'exited' && result.exitCode === 0),
  };
}

/** Keeps the last `limit` bytes of the output, cut at a character boundary. */
function keep(terminal: LiveTerminal, text: string): void {
  terminal.output += text;
  if (Buffer.byteLength(terminal.output) <= terminal.limit) return;
  terminal.truncated = true;
  const bytes = Buffer.from(terminal.output);
  let start = bytes.length - terminal.limit;
  // Skip UTF-8 continuation bytes so the kept text starts on a whole character.
  while (start < bytes.length && ((bytes[start] ?? 0) & 0xc0) === 0x80) start += 1;
  terminal.output = bytes.subarray(start).toString('utf8');
}

function shellQuote(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
