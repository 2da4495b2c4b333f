import type { AgentCommandLog } from '../../shell/agent-commands';
import { deltaNotificationSchema, itemNotificationSchema, type CommandItem } from './codex-protocol';

/** The Cairn run a Codex turn's commands belong to. */
export interface CommandRun {
  readonly sessionId: string;
  readonly turnId: string;
  readonly runId: string;
}

/**
 * The commands of one Codex turn as Cairn shell runs: a command's record starts when Codex starts it
 * where Codex asks no approvals, when the person allows it where Codex asks (a command allowed for the
 * session starts its record at once when Codex runs it again), else with its first output
 * (`item/commandExecution/outputDelta`), which streams live; it ends with the item's
 * completion (exit code, Codex's full output). A command that completes without having streamed is
 * recorded whole then; one Codex declined never ran and gets no record. Commands still open when the
 * turn ends (Stop, a crash) end as stopped.
 */
export class CommandOutput {
  private readonly open = new Map<string, string>();
  private readonly done = new Set<string>();
  /** Command lines the person allowed for the session: Codex runs them again without asking. */
  private readonly allowedForSession = new Set<string>();

  constructor(
    private readonly log: AgentCommandLog,
    /** The Cairn run reading the Codex turn now (a new one after an approval). */
    private readonly runOf: () => CommandRun,
    /** The Codex turn whose notifications count. */
    private readonly codexTurnId: string,
    /** The command item Codex announced (item/started), by id. */
    private readonly itemOf: (itemId: string) => CommandItem | null,
    /** Whether a command's record starts as soon as Codex starts it: true when Codex asks no approvals (none can be declined). */
    private readonly atStart = false,
  ) {}

  observe(method: string, params: unknown): void {
    if (method === 'item/started') {
      const parsed = itemNotificationSchema.safeParse(params);
      if (!parsed.success || parsed.data.turnId !== this.codexTurnId || parsed.data.item.type !== 'commandExecution')
        return;
      const item = parsed.data.item as CommandItem;
      if (this.atStart || this.allowedForSession.has(item.command)) this.shellRunOf(item.id, item);
      return;
    }
    if (method === 'item/commandExecution/outputDelta') {
      const delta = deltaNotificationSchema.safeParse(params);
      if (!delta.success || delta.data.turnId !== this.codexTurnId) return;
      const shellRunId = this.shellRunOf(delta.data.itemId, this.itemOf(delta.data.itemId));
      if (shellRunId !== null) this.log.output(shellRunId, delta.data.delta);
      return;
    }
    if (method !== 'item/completed') return;
    const parsed = itemNotificationSchema.safeParse(params);
    if (!parsed.success || parsed.data.turnId !== this.codexTurnId || parsed.data.item.type !== 'commandExecution')
      return;
    const item = parsed.data.item as CommandItem;
    if (item.status === 'declined' && !this.open.has(item.id)) return;
    const shellRunId = this.shellRunOf(item.id, item);
    if (shellRunId === null) return;
    this.open.delete(item.id);
    this.done.add(item.id);
    const exitCode = item.exitCode ?? null;
    const failed = item.status !== 'completed';
    this.log.end(shellRunId, {
      status: item.status === 'declined' ? 'killed' : 'exited',
      exitCode,
      failureMessage: failed && exitCode === null ? `Codex reported the command ${item.status}.` : null,
      output: item.aggregatedOutput ?? null,
    });
  }

  /** The person allowed this command: Codex runs it now, so it is a running shell run before it prints anything. */
  allowed(itemId: string, forSession: boolean): void {
    const item = this.itemOf(itemId);
    if (item === null) return;
    if (forSession) this.allowedForSession.add(item.command);
    this.shellRunOf(itemId, item);
  }

  /** The turn is over with these commands still running (Codex's background commands): they are no longer this turn's to end. */
  detach(): { itemId: string; shellRunId: string }[] {
    const left = [...this.open.entries()].map(([itemId, shellRunId]) => ({ itemId, shellRunId }));
    this.open.clear();
    return left;
  }

  /** The turn is over: a command still open did not finish. */
  closeAll(reason: string): void {
    for (const shellRunId of this.open.values())
      this.log.end(shellRunId, { status: 'killed', exitCode: null, failureMessage: reason, output: null });
    this.open.clear();
  }

  private shellRunOf(itemId: string, item: CommandItem | null): string | null {
    const known = this.open.get(itemId);
    if (known !== undefined) return known;
    if (item === null || this.done.has(itemId)) return null;
    const { sessionId, turnId, runId } = this.runOf();
    const shellRunId = this.log.begin({
      sessionId,
      turnId,
      runId,
      toolCallId: itemId,
      command: item.command,
      cwd: item.cwd,
    });
    this.open.set(itemId, shellRunId);
    return shellRunId;
  }
}
