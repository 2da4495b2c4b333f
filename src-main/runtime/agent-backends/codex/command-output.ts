import type { AgentCommandLog } from '../../shell/agent-commands';
import type { LeftRunning } from './background-commands';
import { commandNoticeOf, deltaNotificationSchema, type CommandItem } from './codex-protocol';

/** The Cairn run a Codex turn's commands belong to. */
export interface CommandRun {
  readonly sessionId: string;
  readonly turnId: string;
  readonly runId: string;
}

export interface CommandOutputOptions {
  readonly log: AgentCommandLog;
  /** The Cairn run reading the Codex turn now (a new one after an approval). */
  readonly runOf: () => CommandRun;
  /** The Codex turn whose notifications count. */
  readonly codexTurnId: string;
  /** The command item Codex announced (item/started), by id. */
  readonly itemOf: (itemId: string) => CommandItem | null;
  /** Whether a command's record starts as soon as Codex starts it: true when Codex asks no approvals (none can be declined). */
  readonly atStart: boolean;
  /** Says that a notification about a command could not be read in full (it is recorded with what it says). */
  readonly warn: (message: string, fields: Record<string, unknown>) => void;
}

/** A command this turn ended: what the turn's result says of it. */
export interface EndedCommand {
  readonly command: string;
  readonly exitCode: number | null;
  readonly status: string;
}

/**
 * The commands of one Codex turn as Cairn shell runs, each recorded exactly once: a command's record
 * starts when Codex starts it where Codex asks no approvals, when the person allows it where Codex
 * asks (a command allowed for the session starts its record at once when Codex runs it again), else
 * with its first output (`item/commandExecution/outputDelta`), which streams live; it ends with the
 * item's completion (exit code, Codex's full output). A command that completes without having
 * streamed is recorded whole then; one Codex declined never ran and gets no record. A notification
 * about a command in a shape Cairn does not know is recorded with what it says, and logged.
 *
 * Codex reports a command's end from a task of its own, so it may come after the turn ended: the
 * turn's commands outlive it (`settle`), and what Codex says of them later is still applied here, to
 * the run the turn ended in.
 */
export class CommandOutput {
  private readonly open = new Map<string, string>();
  /** What Codex said of each command with a record. */
  private readonly items = new Map<string, CommandItem>();
  private readonly done = new Set<string>();
  /** Commands Codex started (item/started) whose record has not started yet. */
  private readonly announced = new Map<string, CommandItem>();
  /** Command lines the person allowed for the session: Codex runs them again without asking. */
  private readonly allowedForSession = new Set<string>();
  /** The run the turn ended in, once it has. */
  private endedIn: CommandRun | null = null;

  constructor(private readonly options: CommandOutputOptions) {}

  get codexTurnId(): string {
    return this.options.codexTurnId;
  }

  /** Applies a notification; the command it ended, if it ended one. */
  observe(method: string, params: unknown): EndedCommand | null {
    if (method === 'item/commandExecution/outputDelta') {
      const delta = deltaNotificationSchema.safeParse(params);
      if (!delta.success) {
        this.options.warn('Codex sent command output Cairn could not read', { method, error: delta.error.message });
        return null;
      }
      if (delta.data.turnId !== this.codexTurnId) return null;
      const itemId = delta.data.itemId;
      const shellRunId = this.shellRunOf(itemId, this.announced.get(itemId) ?? this.options.itemOf(itemId));
      if (shellRunId !== null) this.options.log.output(shellRunId, delta.data.delta);
      return null;
    }
    if (method !== 'item/started' && method !== 'item/completed') return null;
    const notice = commandNoticeOf(params);
    if (notice.kind === 'other') return null;
    if (notice.kind === 'unreadable') {
      this.options.warn('Codex sent an item Cairn could not read', { method, error: notice.why });
      return null;
    }
    if (notice.turnId !== this.codexTurnId) return null;
    const { item } = notice;
    if (notice.unread !== null)
      this.options.warn('Codex described a command in a shape Cairn does not know; recorded with what it says', {
        method,
        itemId: item.id,
        unread: notice.unread,
      });
    if (method === 'item/started') {
      if (this.open.has(item.id) || this.done.has(item.id)) return null;
      if (this.options.atStart || this.allowedForSession.has(item.command)) this.shellRunOf(item.id, item);
      else this.announced.set(item.id, item);
      return null;
    }
    return this.complete(item);
  }

  /** The person allowed this command: Codex runs it now, so it is a running shell run before it prints anything. */
  allowed(itemId: string, forSession: boolean): void {
    const item = this.announced.get(itemId) ?? this.options.itemOf(itemId);
    if (item === null) return;
    if (forSession) this.allowedForSession.add(item.command);
    this.shellRunOf(itemId, item);
  }

  /**
   * The turn completed with these commands still running (Codex's background commands, and ones
   * Codex started that have not printed yet): they are no longer this turn's to end.
   */
  detach(): LeftRunning[] {
    for (const [itemId, item] of this.announced) this.shellRunOf(itemId, item);
    const left = [...this.open].flatMap(([itemId, shellRunId]) => {
      const item = this.items.get(itemId);
      return item === undefined ? [] : [{ item, shellRunId }];
    });
    for (const itemId of this.open.keys()) this.done.add(itemId);
    this.open.clear();
    return left;
  }

  /** The turn is over: a command still open did not finish (what Codex says of it later changes nothing). */
  closeAll(reason: string): void {
    for (const [itemId, shellRunId] of this.open) {
      this.done.add(itemId);
      this.options.log.end(shellRunId, { status: 'killed', exitCode: null, failureMessage: reason, output: null });
    }
    this.open.clear();
  }

  /** The turn ended in the run reading it now: commands Codex reports later are recorded there. */
  settle(): void {
    this.endedIn ??= this.options.runOf();
  }

  private complete(item: CommandItem): EndedCommand | null {
    this.announced.delete(item.id);
    if (item.status === 'declined' && !this.open.has(item.id)) return null;
    const shellRunId = this.shellRunOf(item.id, item);
    if (shellRunId === null) return null;
    this.open.delete(item.id);
    this.done.add(item.id);
    const exitCode = item.exitCode ?? null;
    const failed = item.status !== 'completed';
    this.options.log.end(shellRunId, {
      status: item.status === 'declined' ? 'killed' : 'exited',
      exitCode,
      failureMessage: failed && exitCode === null ? `Codex reported the command ${item.status}.` : null,
      output: item.aggregatedOutput ?? null,
    });
    return { command: item.command, exitCode, status: item.status };
  }

  private shellRunOf(itemId: string, item: CommandItem | null): string | null {
    const known = this.open.get(itemId);
    if (known !== undefined) return known;
    if (item === null || this.done.has(itemId)) return null;
    this.announced.delete(itemId);
    const { sessionId, turnId, runId } = this.endedIn ?? this.options.runOf();
    const shellRunId = this.options.log.begin({
      sessionId,
      turnId,
      runId,
      toolCallId: itemId,
      command: item.command,
      cwd: item.cwd,
    });
    this.open.set(itemId, shellRunId);
    this.items.set(itemId, item);
    return shellRunId;
  }
}
