/**
 * Opening the thread (Codex) or session (ACP) a native agent works in: the checkpointed one is
 * resumed; with no checkpoint, a new one is started. The caller binds the result to its session.
 */
export interface AgentThreads {
  /** Resumes the thread; its id. Rejects when the agent cannot resume it. */
  resume(threadId: string): Promise<string>;
  /** Starts a new thread; its id. */
  start(): Promise<string>;
}

export interface ThreadOpening {
  readonly threadId: string;
  /** Whether the checkpointed thread was resumed (false: a new one was started). */
  readonly resumed: boolean;
}

export async function openThread(checkpointThreadId: string | null, threads: AgentThreads, onResumeFailed: (error: unknown) => void): Promise<ThreadOpening> {
  if (checkpointThreadId !== null) {
    const resumed = await threads.resume(checkpointThreadId).catch((error: unknown) => {
      onResumeFailed(error);
      return null;
    });
    if (resumed !== null) return { threadId: resumed, resumed: true };
  }
  return { threadId: await threads.start(), resumed: false };
}
