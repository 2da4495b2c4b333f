import type { Outcome } from '../../src-shared/errors';
import type { ChangeEvent, ChangeEventBody } from '../../src-shared/events';
import type { OperationInput, OperationName, OperationResult } from '../../src-shared/operations';
import type { ConnectionState, HostLink } from '../bridge/host-link';

type Handler<N extends OperationName> = (input: OperationInput<N>) => Outcome<OperationResult<N>>;

/** A host link for store tests: operations answered by handlers the test sets, events pushed by hand. */
export class FakeHostLink implements HostLink {
  readonly calls: Array<{ op: OperationName; input: unknown }> = [];
  private readonly handlers = new Map<OperationName, (input: unknown) => Outcome<unknown>>();
  private readonly eventListeners = new Set<(event: ChangeEvent) => void>();
  private readonly stateListeners = new Set<(state: ConnectionState) => void>();
  private state: ConnectionState = { status: 'open', hostEpoch: 'epoch-1', generation: 1, problem: null };
  private seq = 0;

  answer<N extends OperationName>(op: N, handler: Handler<N>): void {
    this.handlers.set(op, handler as (input: unknown) => Outcome<unknown>);
  }

  invoke<N extends OperationName>(op: N, input: OperationInput<N>): Promise<Outcome<OperationResult<N>>> {
    this.calls.push({ op, input });
    const handler = this.handlers.get(op);
    const outcome =
      handler === undefined
        ? { ok: false as const, error: { code: 'internal_failure' as const, message: `No fake for ${op}` } }
        : handler(input);
    return Promise.resolve(outcome as Outcome<OperationResult<N>>);
  }

  callsOf(op: OperationName): unknown[] {
    return this.calls.filter((call) => call.op === op).map((call) => call.input);
  }

  /** Pushes events with consecutive seq numbers (or the seq given, to make a gap). */
  push(body: ChangeEventBody, seq = this.seq + 1): void {
    this.seq = seq;
    const event = { ...body, seq, hostEpoch: this.state.hostEpoch ?? 'epoch-1' } as ChangeEvent;
    for (const listener of this.eventListeners) listener(event);
  }

  setConnection(state: ConnectionState): void {
    this.state = state;
    for (const listener of this.stateListeners) listener(state);
  }

  subscribe(listener: (event: ChangeEvent) => void): () => void {
    this.eventListeners.add(listener);
    return () => this.eventListeners.delete(listener);
  }

  connection(): ConnectionState {
    return this.state;
  }

  onConnectionChange(listener: (state: ConnectionState) => void): () => void {
    this.stateListeners.add(listener);
    return () => this.stateListeners.delete(listener);
  }

  close(): void {}
}
