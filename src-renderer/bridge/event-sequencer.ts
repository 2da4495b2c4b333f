import type { ChangeEvent } from '../../src-shared/events';

/**
 * What an arriving event means for the client's copy of the record:
 * - `next`: the one expected (or the first seen since a reset);
 * - `gap`: one or more events were missed, so snapshots must be re-read;
 * - `new_epoch`: the host restarted, so everything must be re-read;
 * - `replayed`: already seen (not newer than the last); drop it.
 */
export type EventVerdict = 'next' | 'gap' | 'new_epoch' | 'replayed';

/** Watches the host-wide `seq` of change events (ARCHITECTURE.md §3). */
export class EventSequencer {
  private epoch: string | null = null;
  private lastSeq: number | null = null;

  /** Forget the position and epoch: the next event is the new baseline (after a welcome, which resyncs anyway). */
  reset(): void {
    this.epoch = null;
    this.lastSeq = null;
  }

  check(event: Pick<ChangeEvent, 'seq' | 'hostEpoch'>): EventVerdict {
    if (this.epoch !== null && event.hostEpoch !== this.epoch) {
      this.epoch = event.hostEpoch;
      this.lastSeq = event.seq;
      return 'new_epoch';
    }
    this.epoch = event.hostEpoch;
    if (this.lastSeq === null) {
      this.lastSeq = event.seq;
      return 'next';
    }
    if (event.seq <= this.lastSeq) return 'replayed';
    const verdict: EventVerdict = event.seq === this.lastSeq + 1 ? 'next' : 'gap';
    this.lastSeq = event.seq;
    return verdict;
  }
}
