import type { CodexStore } from '../../../storage/codex-store';
import type { AgentCommandLog } from '../../shell/agent-commands';
import { argumentsOf, type ProcessEntry } from '../../shell/process-tree';
import { deltaNotificationSchema, itemNotificationSchema, type CommandItem } from './codex-protocol';
import type { CodexBounds } from './live-app-server';
import { stopProcesses } from './turn-processes';

/** A command a Codex turn left running (Codex's background / yielded `exec_command`). */
interface HeldCommand {
  readonly shellRunId: string;
  readonly codexTurnId: string;
  readonly command: string;
  /** Its processes as the turn ended (children of the app-server), so Stop can end them. */
  readonly processes: readonly ProcessEntry[];
}

/** A command the turn left running, and its shell run. */
export interface LeftRunning {
  readonly item: CommandItem;
  readonly shellRunId: string;
}

/**
 * The commands of a session's app-server that outlived their Codex turn. Each stays a live shell run
 * (listed in Commands, `running` in the turn's result); Codex's later output and completion of it
 * arrive while no turn is read and are applied here; Stop (`shell.kill`) ends its process group. The
 * app-server ending ends them too.
 */
export class BackgroundCommands {
  private readonly held = new Map<string, HeldCommand>();

  constructor(
    private readonly log: AgentCommandLog,
    private readonly commands: Pick<CodexStore, 'settleCommand'>,
    private readonly bounds: Pick<CodexBounds, 'killGraceMs' | 'killConfirmMs'>,
    /** The app-server's own process group. */
    private readonly ownGroup: () => number,
  ) {}

  /** The turn `codexTurnId` ended with `left` still running; `processes` are the turn's command processes now. */
  adopt(codexTurnId: string, left: readonly LeftRunning[], processes: readonly ProcessEntry[]): void {
    for (const { item, shellRunId } of left) {
      const own = left.length === 1 ? processes : processesOf(item, processes);
      this.held.set(item.id, { shellRunId, codexTurnId, command: item.command, processes: own });
      this.log.stoppable(shellRunId, () => this.stop(item.id, 'Stopped by you.'));
    }
  }

  /** Applies a notification about a held command; false when it is about none (the turn reader's then). */
  take(method: string, params: unknown): boolean {
    if (method === 'item/commandExecution/outputDelta') {
      const delta = deltaNotificationSchema.safeParse(params);
      const held = delta.success ? this.held.get(delta.data.itemId) : undefined;
      if (!delta.success || held === undefined) return false;
      this.log.output(held.shellRunId, delta.data.delta);
      return true;
    }
    if (method !== 'item/completed') return false;
    const parsed = itemNotificationSchema.safeParse(params);
    if (!parsed.success || parsed.data.item.type !== 'commandExecution') return false;
    const item = parsed.data.item as CommandItem;
    const held = this.held.get(item.id);
    if (held === undefined) return false;
    this.held.delete(item.id);
    const exitCode = item.exitCode ?? null;
    this.log.end(held.shellRunId, {
      status: 'exited',
      exitCode,
      failureMessage:
        item.status !== 'completed' && exitCode === null ? `Codex reported the command ${item.status}.` : null,
      output: item.aggregatedOutput ?? null,
    });
    this.commands.settleCommand(held.codexTurnId, held.command, { exitCode, status: item.status });
    return true;
  }

  /** Whether a command of an earlier turn still runs. */
  get running(): boolean {
    return this.held.size > 0;
  }

  /** Whether a notification is about a held command. */
  holds(method: string, params: unknown): boolean {
    if (this.held.size === 0) return false;
    if (method === 'item/commandExecution/outputDelta') {
      const delta = deltaNotificationSchema.safeParse(params);
      return delta.success && this.held.has(delta.data.itemId);
    }
    if (method !== 'item/completed') return false;
    const parsed = itemNotificationSchema.safeParse(params);
    return parsed.success && this.held.has(parsed.data.item.id);
  }

  /** Ends a held command's processes and records it stopped; true when they are confirmed gone. */
  async stop(itemId: string, reason: string): Promise<boolean> {
    const held = this.held.get(itemId);
    if (held === undefined) return false;
    this.held.delete(itemId);
    const stopped = await stopProcesses(
      this.ownGroup(),
      held.processes,
      this.bounds.killGraceMs,
      this.bounds.killConfirmMs,
    );
    const why = stopped ? reason : `${reason} Cairn could not confirm its processes ended.`;
    this.log.end(held.shellRunId, { status: 'killed', exitCode: null, failureMessage: why, output: null });
    this.commands.settleCommand(held.codexTurnId, held.command, { exitCode: null, status: 'stopped' });
    return stopped;
  }

  /** The app-server is ending: every held command ends with it. */
  async stopAll(reason: string): Promise<void> {
    await Promise.all([...this.held.keys()].map((itemId) => this.stop(itemId, reason)));
  }
}

/** The processes that run `item`: the groups led by a process started with its script (Codex runs `<shell> -lc '<script>'`). */
function processesOf(item: CommandItem, processes: readonly ProcessEntry[]): ProcessEntry[] {
  const leaders = new Set(
    processes
      .filter((entry) => entry.pid === entry.pgid)
      .filter((entry) => {
        const script = argumentsOf(entry.pid)?.at(-1) ?? '';
        return script !== '' && item.command.includes(script);
      })
      .map((entry) => entry.pgid),
  );
  return processes.filter((entry) => leaders.has(entry.pgid));
}
