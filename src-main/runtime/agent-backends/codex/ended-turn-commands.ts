import type { CodexStore } from '../../../storage/codex-store';
import type { CommandOutput } from './command-output';

/** How many of an app-server's ended turns still take what Codex says late about their commands. */
const TURNS_KEPT = 16;

/** The methods that can be about a command. */
const COMMAND_METHODS = new Set(['item/started', 'item/completed', 'item/commandExecution/outputDelta']);

/**
 * The commands of the Codex turns that ended on one app-server. Codex reports a command's end (and
 * its last output) from a task of its own, so it can arrive after `turn/completed`: it is applied to
 * the ended turn's commands, recorded in the run that turn ended in, and its ending goes into the
 * turn's result, instead of waiting in the queue for a run that never reads it.
 */
export class EndedTurnCommands {
  private readonly turns = new Map<string, CommandOutput>();

  constructor(private readonly results: Pick<CodexStore, 'settleCommand'>) {}

  /** The turn of `commands` ended: their later notifications are theirs. */
  add(commands: CommandOutput): void {
    commands.settle();
    this.turns.set(commands.codexTurnId, commands);
    for (const turnId of this.turns.keys()) {
      if (this.turns.size <= TURNS_KEPT) break;
      this.turns.delete(turnId);
    }
  }

  /** Whether a notification is about a command of an ended turn. */
  holds(method: string, params: unknown): boolean {
    return this.commandsOf(method, params) !== null;
  }

  /** Applies a notification about a command of an ended turn; false when it is about none. */
  take(method: string, params: unknown): boolean {
    const commands = this.commandsOf(method, params);
    if (commands === null) return false;
    const ended = commands.observe(method, params);
    if (ended !== null) this.results.settleCommand(commands.codexTurnId, ended.command, ended);
    return true;
  }

  private commandsOf(method: string, params: unknown): CommandOutput | null {
    if (this.turns.size === 0 || !COMMAND_METHODS.has(method)) return null;
    const turnId: unknown = typeof params === 'object' && params !== null && 'turnId' in params ? params.turnId : null;
    if (typeof turnId !== 'string') return null;
    if (method !== 'item/commandExecution/outputDelta' && !isCommandItem(params)) return null;
    return this.turns.get(turnId) ?? null;
  }
}

function isCommandItem(params: unknown): boolean {
  const item: unknown = typeof params === 'object' && params !== null && 'item' in params ? params.item : null;
  return typeof item === 'object' && item !== null && 'type' in item && item.type === 'commandExecution';
}
