import { fail, type Failure, type OperationError } from '../../../src-shared/errors';

/**
 * Whether the host may start new work (ARCHITECTURE.md §4, invariant 8). Every path that starts a
 * run — a turn, a queued follow-up, a goal turn, a WorkHub delegation, a resume, the continuation
 * after an answer — asks here first. Once shutdown begins the gate closes for good: nothing new
 * starts, and what asks is answered `host_draining`.
 */
export class AdmissionGate {
  private open = true;
  private damage: OperationError<'storage_damaged'> | null = null;
  private paused: string | null = null;

  get isOpen(): boolean {
    return this.open;
  }

  /** Shutdown began: refuse every new run from now on. */
  close(): void {
    this.open = false;
  }

  /** The database was found damaged: refuse every new run with that error (Stop and reads still answer). */
  refuseAfterDamage(error: OperationError<'storage_damaged'>): void {
    this.damage ??= error;
  }

  /**
   * Holds new runs back for a while (Reclaim space compacting the database): they are refused as
   * `session_busy` with `message`, so nothing fails silently. Returns the release.
   */
  pause(message: string): () => void {
    this.paused = message;
    return () => {
      if (this.paused === message) this.paused = null;
    };
  }

  /** Null while new work may start; otherwise the failure to answer with. */
  refusal(): Failure<'host_draining' | 'storage_damaged' | 'session_busy'> | null {
    if (!this.open)
      return fail(
        'host_draining',
        'Cairn is shutting down, so it starts no new work. It carries on after the restart.',
      );
    if (this.damage !== null) return { ok: false, error: this.damage };
    return this.paused === null ? null : fail('session_busy', this.paused);
  }
}
