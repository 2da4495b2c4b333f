import { z } from 'zod';
import type { ShellRunRecord } from '../../../src-shared/shell-run-model';
import type { AgentTool, ToolContext } from '../contract/agent-tool';
import { toolError } from '../contract/agent-tool';
import { lastChars } from '../shell/shell-output';
import type { ShellOutputChunk, ShellRunner, ShellRunResult } from '../shell/shell-runner';
import { blockedLine, type CommandOwner, type Confinement } from '../sandbox/sandbox-service';
import { realWorkspaceRoot } from './workspace-paths';
import { parseToolInput, type ChangePreview, type WorkspaceToolOptions } from './workspace-tool-support';

export const RUN_SHELL_LIMITS = {
  defaultTimeoutSeconds: 120,
  maxTimeoutSeconds: 600,
  resultTailChars: 20_000,
  maxCommandChars: 100_000,
} as const;

export interface RunShellToolOptions extends WorkspaceToolOptions {
  readonly runner: ShellRunner;
  /** Default 120. */
  readonly defaultTimeoutSeconds?: number;
  /** Characters of each stream's tail put in the tool result. Default 20,000. */
  readonly resultTailChars?: number;
  /** The process is running: its record (with shellRunId and pid), e.g. to offer a Stop. */
  readonly onStart?: (run: ShellRunRecord, context: ToolContext) => void;
  /** Live output, coalesced (about every 50 ms), for the transcript. */
  readonly onOutput?: (chunk: ShellOutputChunk, context: ToolContext) => void;
  /** Where a session's command runs: in the sandbox, outside it, or refused. Default: outside. */
  readonly confine?: (owner: CommandOwner, cwd: string, options: { unsandboxed: boolean }) => Confinement;
}

const inputSchema = z.strictObject({
  command: z.string().trim().min(1, 'must not be empty').max(RUN_SHELL_LIMITS.maxCommandChars),
  timeoutSeconds: z.number().int().min(1).max(RUN_SHELL_LIMITS.maxTimeoutSeconds).optional(),
});

/** The tool call's id when the context carries one (a runtime that records it passes `toolCallId`). */
function toolCallIdOf(context: ToolContext): string | null {
  const extended = context as ToolContext & { readonly toolCallId?: unknown };
  return typeof extended.toolCallId === 'string' ? extended.toolCallId : null;
}

/** What run_shell would do with `input` in the workspace `root`: the command and the folder it runs in. */
export async function previewChange(root: string, input: unknown): Promise<ChangePreview> {
  const parsed = parseToolInput('run_shell', inputSchema, input);
  if (!parsed.ok) return { kind: 'invalid', message: parsed.message };
  const real = await realWorkspaceRoot(root);
  if (!real.ok) return { kind: 'invalid', message: real.message };
  return { kind: 'command', command: parsed.value.command, cwd: real.root };
}

function notesFor(result: ShellRunResult, timeoutSeconds: number, cut: { stdout: boolean; stderr: boolean }): string[] {
  const notes: string[] = [];
  if (result.status === 'timed_out') {
    notes.push(
      `The command ran longer than ${timeoutSeconds} s and was stopped, with everything it started. ` +
        `If it needs longer, pass timeoutSeconds (at most ${RUN_SHELL_LIMITS.maxTimeoutSeconds}).`,
    );
  } else if (result.status === 'killed') {
    notes.push('The command was stopped before it finished.');
  } else if (result.failureMessage !== null) {
    notes.push(result.failureMessage);
  }
  if (result.stoppedLeftovers)
    notes.push(
      'Processes the command left running in the background were stopped when it exited; run_shell keeps nothing running.',
    );
  for (const stream of ['stdout', 'stderr'] as const)
    if (cut[stream]) notes.push(`${stream} was longer than shown; this is its last part.`);
  return notes;
}

/**
 * What stopped a sandboxed command at the wall, said plainly so the agent does not retry blindly:
 * exactly for the network (the result's `blocked` has a line per host the proxy refused), best effort for files.
 */
function sandboxNotes(result: ShellRunResult, blockedHosts: readonly string[]): string[] {
  const text = `${result.stderrTail}\n${result.stdoutTail}`;
  const notes: string[] = [];
  if (/read-only file system/i.test(text))
    notes.push('Blocked by the sandbox: writes are allowed only inside the workspace and /tmp.');
  if (blockedHosts.length > 0) {
    notes.push(
      'The sandbox refused the network hosts under "blocked"; the person is asked to allow them (once, for this session or always): retry after they have.',
    );
  } else if (
    /could not resolve|network is unreachable|name or service not known|temporary failure in name resolution|connection refused/i.test(
      text,
    )
  ) {
    notes.push('The sandbox reaches the network only through its proxy (HTTP_PROXY), and only hosts on the allowlist.');
  }
  return notes;
}

/** run_shell: a bash command in the workspace folder, its exit and the tails of its output. */
export function createRunShellTool(options: RunShellToolOptions): AgentTool {
  const resultTailChars = options.resultTailChars ?? RUN_SHELL_LIMITS.resultTailChars;
  const defaultTimeoutSeconds = options.defaultTimeoutSeconds ?? RUN_SHELL_LIMITS.defaultTimeoutSeconds;
  return {
    name: 'run_shell',
    description:
      'Runs a command with bash in the workspace folder and returns its exit code and output (the last part of each stream when long). ' +
      'Each call is a fresh shell: cd and variables do not carry over. stdin is closed, so prompts read end-of-file; use non-interactive flags. ' +
      `Timeout ${defaultTimeoutSeconds} s unless timeoutSeconds says otherwise (at most ${RUN_SHELL_LIMITS.maxTimeoutSeconds}); ` +
      'on timeout or stop, the command and everything it started are killed, and background processes are stopped when it exits. ' +
      'In Auto and Ask mode the command runs in a sandbox: it writes only inside the workspace and /tmp, cannot read secrets such as ~/.ssh, ' +
      'and reaches the network only through its HTTP proxy, to hosts the person allowed (a refused host is named in the result).',
    inputSchema: {
      type: 'object',
      properties: {
        command: {
          type: 'string',
          description: 'The bash command line, e.g. "npm test -- --run" or "ls -la src | head -50".',
        },
        timeoutSeconds: {
          type: 'integer',
          minimum: 1,
          maximum: RUN_SHELL_LIMITS.maxTimeoutSeconds,
          description: `Default ${defaultTimeoutSeconds}.`,
        },
      },
      required: ['command'],
      additionalProperties: false,
    },
    readOnly: false,
    preview: (input) => previewChange(options.root, input),
    async execute(input, context) {
      const parsed = parseToolInput('run_shell', inputSchema, input);
      if (!parsed.ok) return toolError(parsed.message);
      const real = await realWorkspaceRoot(options.root);
      if (!real.ok) return toolError(real.message);
      const timeoutSeconds = parsed.value.timeoutSeconds ?? defaultTimeoutSeconds;
      let confinement: Confinement;
      try {
        const toolCallId = toolCallIdOf(context);
        const owner = {
          sessionId: context.sessionId,
          turnId: context.turnId,
          runId: context.runId,
          ...(toolCallId === null ? {} : { toolCallId }),
        };
        confinement = options.confine?.(owner, real.root, { unsandboxed: context.unsandboxed === true }) ?? {
          unconfined: true,
        };
      } catch (error) {
        return toolError(
          `The sandbox could not be prepared, so the command did not run: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
      if ('refuse' in confinement) return toolError(confinement.refuse);
      const sandbox = 'sandbox' in confinement ? confinement.sandbox : null;
      let result: ShellRunResult;
      try {
        result = await options.runner.run({
          sessionId: context.sessionId,
          turnId: context.turnId,
          runId: context.runId,
          toolCallId: toolCallIdOf(context),
          command: parsed.value.command,
          cwd: real.root,
          timeoutMs: timeoutSeconds * 1000,
          signal: context.signal,
          ...(sandbox === null ? {} : { wrap: (argv: readonly string[]) => sandbox.wrap(argv) }),
          ...(options.onStart === undefined
            ? {}
            : { onStart: (run: ShellRunRecord) => options.onStart?.(run, context) }),
          ...(options.onOutput === undefined
            ? {}
            : { onOutput: (chunk: ShellOutputChunk) => options.onOutput?.(chunk, context) }),
        });
      } catch (error) {
        return toolError(`The command could not be started: ${error instanceof Error ? error.message : String(error)}`);
      } finally {
        sandbox?.dispose();
      }
      const stdout = lastChars(result.stdoutTail, resultTailChars);
      const stderr = lastChars(result.stderrTail, resultTailChars);
      const cut = { stdout: stdout.cut || result.stdoutTruncated, stderr: stderr.cut || result.stderrTruncated };
      const blocked = sandbox?.blockedHosts() ?? [];
      const notes = [
        ...notesFor(result, timeoutSeconds, cut),
        ...(sandbox === null ? [] : sandboxNotes(result, blocked)),
      ];
      return {
        output: {
          shellRunId: result.shellRunId,
          status: result.status,
          exitCode: result.exitCode,
          ...(result.signal === null ? {} : { signal: result.signal }),
          stdout: stdout.text,
          stderr: stderr.text,
          ...(cut.stdout ? { stdoutTruncated: true } : {}),
          ...(cut.stderr ? { stderrTruncated: true } : {}),
          durationMs: result.durationMs,
          ...(sandbox === null ? {} : { sandboxed: true }),
          ...(blocked.length === 0 ? {} : { blocked: blocked.map(blockedLine).join('\n') }),
          ...(notes.length === 0 ? {} : { note: notes.join(' ') }),
        },
        isError: !(result.status === 'exited' && result.exitCode === 0),
      };
    },
  };
}
