import type { ChangeEvent, ChangeEventBody } from '../../../src-shared/events';
import type { Logger } from './ports';

export type ChangeListener = (event: ChangeEvent) => void;

/** Stamps change events with a host-wide, strictly increasing `seq` and hands them to subscribers. */
export class EventBus {
  private seq = 0;
  private readonly listeners = new Set<ChangeListener>();

  constructor(
    private readonly hostEpoch: string,
    private readonly logger: Logger,
  ) {}

  get lastSeq(): number {
    return this.seq;
  }

  publish(body: ChangeEventBody): void {
    this.seq += 1;
    const event = { ...body, seq: this.seq, hostEpoch: this.hostEpoch } as ChangeEvent;
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch (error) {
        this.logger.error('A change listener failed', { error: String(error) });
      }
    }
  }

  subscribe(listener: ChangeListener): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }
}
