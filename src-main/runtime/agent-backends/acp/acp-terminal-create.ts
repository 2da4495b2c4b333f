import type { CreateTerminalRequest, CreateTerminalResponse } from '@agentclientprotocol/sdk';
import type { AcpBackendDeps, SessionState } from './acp-backend-deps';

/**
 * `terminal/create`: asked of the person as the agent's own permission requests are (a card in Ask,
 * allowed in Full, refused in Explore), then run as a shell run of the run reading the agent.
 */
export async function createAgentTerminal(
  deps: AcpBackendDeps,
  sessionId: string,
  state: SessionState,
  params: CreateTerminalRequest,
): Promise<CreateTerminalResponse> {
  const { live } = state;
  const command = state.terminals.commandOf(params, state.fs.workspace);
  if ('error' in command) throw new Error(command.error);
  if (live.sessionId === null) throw new Error('no ACP session');
  // A network block of the terminal goes to the turn reading the agent now, as its tool call's card.
  const call =
    state.run === null
      ? undefined
      : { turnId: state.run.turnId, runId: state.run.runId, toolCallId: command.toolCallId };
  const confinement = deps.shell.confine?.(sessionId, command.cwd, call) ?? { unconfined: true };
  if ('refuse' in confinement) throw new Error(confinement.refuse);
  const sandbox = 'sandbox' in confinement ? confinement.sandbox : null;
  // Auto: a terminal inside the sandbox runs unasked, as run_shell's commands do.
  const unasked = sandbox !== null && state.fs.permissionMode === 'auto';
  const answer = unasked
    ? { outcome: { outcome: 'selected' as const, optionId: 'allow' } }
    : await live.askPermission(
        {
          sessionId: live.sessionId,
          toolCall: {
            toolCallId: command.toolCallId,
            title: `Run ${command.command}`,
            kind: 'execute',
            rawInput: { command: command.command, cwd: command.cwd },
          },
          options: [
            { optionId: 'allow', name: 'Allow once', kind: 'allow_once' },
            { optionId: 'always', name: 'Always allow', kind: 'allow_always' },
            { optionId: 'reject', name: 'Reject', kind: 'reject_once' },
          ],
        },
        command,
      );
  if (answer.outcome.outcome !== 'selected' || answer.outcome.optionId === 'reject') {
    sandbox?.dispose();
    const meta = '_meta' in answer ? answer._meta : undefined;
    const reason = typeof meta?.reason === 'string' ? meta.reason : null;
    throw new Error(`Cairn did not run the command: ${reason ?? 'the person or the session’s mode refused it.'}`);
  }
  const run = state.run;
  if (run === null) {
    sandbox?.dispose();
    throw new Error('No Cairn turn is running for this terminal.');
  }
  live.noteTerminal({ kind: 'terminal_started', command });
  const place = { sessionId, turnId: run.turnId, runId: run.runId, workspace: state.fs.workspace };
  const terminalId = state.terminals.start(
    place,
    command,
    params.outputByteLimit,
    (result) => live.noteTerminal({ kind: 'terminal_exited', toolCallId: command.toolCallId, result }),
    sandbox,
  );
  return { terminalId };
}
