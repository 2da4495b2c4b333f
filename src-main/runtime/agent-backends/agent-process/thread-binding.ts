/**
 * The thread (Codex) or session (ACP) a native agent works in, bound to the Cairn session that owns
 * it. A session never runs on another session's thread, and its thread never changes silently: a
 * thread kept as a resume point that cannot be resumed fails with `ThreadUnavailable`; a new thread replaces it
 * only when the person chose so (recorded before this runs).
 */
export interface AgentThreads {
  /** Resumes the thread; its id. Rejects (bounded) when the agent cannot resume it. */
  resume(threadId: string): Promise<string>;
  /** Starts a new thread; its id. */
  start(): Promise<string>;
}

/** What the binding needs of Cairn's record of threads. */
export interface ThreadRecord {
  /** The session that owns the thread, or null when never recorded. */
  owner(threadId: string): string | null;
  /** Records the owner of a new thread. */
  own(threadId: string, sessionId: string, now: number): boolean;
  /** The session's open thread problem and the person's choice on it, if any. */
  problem(
    sessionId: string,
  ): { readonly threadId: string; readonly choice: 'new_thread' | 'retry' | null; readonly resolved: boolean } | null;
  /** Whether the thread replaced an unresumable one and no turn on it has started yet (it still owes the summary). */
  summaryDue(threadId: string): boolean;
}

export type ThreadOpening =
  | { readonly kind: 'resumed'; readonly threadId: string }
  /**
   * A new thread; `replacing` is the unresumable thread the person chose to leave (or the new thread
   * that replaced it and never ran a turn), or null for a first thread.
   */
  | { readonly kind: 'new'; readonly threadId: string; readonly replacing: string | null };

/** The session's thread cannot be used: `reason` says what was missing, damaged or wrong. */
export class ThreadUnavailable extends Error {
  constructor(
    readonly threadId: string,
    readonly reason: string,
  ) {
    super(reason);
    this.name = 'ThreadUnavailable';
  }
}

/** Refuses, before anything starts, a resume point naming a thread another session owns. */
export function checkThreadOwner(sessionId: string, threadId: string | null, record: ThreadRecord): void {
  if (threadId === null) return;
  const owner = record.owner(threadId);
  if (owner !== null && owner !== sessionId) {
    throw new ThreadUnavailable(
      threadId,
      `its resume point names thread ${threadId}, which belongs to another session (${owner}); Cairn does not run a session on another session's thread`,
    );
  }
}

export async function openThread(
  sessionId: string,
  resumeThreadId: string | null,
  record: ThreadRecord,
  threads: AgentThreads,
  now: () => number,
): Promise<ThreadOpening> {
  checkThreadOwner(sessionId, resumeThreadId, record);
  const problem = record.problem(sessionId);
  const chosen =
    resumeThreadId !== null &&
    problem !== null &&
    problem.threadId === resumeThreadId &&
    problem.choice === 'new_thread' &&
    !problem.resolved;
  // A new thread on which no turn started holds nothing (Codex writes a thread down with its first
  // turn, so it could not even be resumed): another new thread takes its place, still owing the summary.
  const replace = chosen || (resumeThreadId !== null && record.summaryDue(resumeThreadId));
  if (resumeThreadId !== null && !replace) {
    const threadId = await threads.resume(resumeThreadId).catch((error: unknown) => {
      throw new ThreadUnavailable(resumeThreadId, error instanceof Error ? error.message : String(error));
    });
    if (record.owner(threadId) === null) record.own(threadId, sessionId, now());
    return { kind: 'resumed', threadId };
  }
  const threadId = await threads.start();
  record.own(threadId, sessionId, now());
  return { kind: 'new', threadId, replacing: replace ? resumeThreadId : null };
}
