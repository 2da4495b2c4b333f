/** Bounds and error text for ACP agents: free of the ACP SDK, so the host can use them before any agent has started. */

/** Bounds on every await on an ACP agent, in milliseconds. */
export interface AcpBounds {
  readonly startMs: number;
  readonly requestMs: number;
  /** How long Stop waits for the agent to end its turn after `session/cancel` before the group is killed. */
  readonly cancelMs: number;
  readonly killGraceMs: number;
  readonly killConfirmMs: number;
}

export const DEFAULT_ACP_BOUNDS: AcpBounds = {
  startMs: 120_000,
  requestMs: 120_000,
  cancelMs: 2_000,
  killGraceMs: 500,
  killConfirmMs: 2_000,
};

/** `promise`, or a rejection naming `what` once `ms` pass. */
export async function bounded<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`the agent did not answer ${what} within ${ms} ms`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

export function errorText(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === 'object' && error !== null && 'message' in error && typeof error.message === 'string')
    return error.message;
  return String(error);
}
