import type { Clock } from '../ports/ports';
import { LiveOutput, OutputTail } from './shell-output';

export type RunStream = 'stdout' | 'stderr';

/** The tails of a run's two streams as the record keeps them. */
export interface RunOutputTails {
  readonly stdoutTail: string;
  readonly stderrTail: string;
  readonly stdoutTruncated: boolean;
  readonly stderrTruncated: boolean;
}

export interface RunOutputOptions {
  readonly tailBytes: number;
  readonly flushIntervalMs: number;
  readonly clock: Clock;
  /** Writes the tails to the store; false when the write failed (the piece is then not handed out). */
  readonly save: (tails: RunOutputTails) => boolean;
  /** Hands a coalesced live piece out (after its tails are saved). */
  readonly hand: (stream: RunStream, text: string) => void;
}

/**
 * A running command's output: the last `tailBytes` of each stream kept for the record, and the live
 * pieces coalesced and handed out every `flushIntervalMs` — each only after the tails holding it are
 * saved (invariant 1: what a client saw live survives a crash).
 */
export class RunOutput {
  private readonly tails: Record<RunStream, OutputTail>;
  private readonly pieces: Record<RunStream, LiveOutput>;
  private unsaved = false;
  private cancelFlush: (() => void) | null = null;

  constructor(private readonly options: RunOutputOptions) {
    this.tails = { stdout: new OutputTail(options.tailBytes), stderr: new OutputTail(options.tailBytes) };
    // A live piece is bounded like the tail: a flood between two flushes keeps its end.
    this.pieces = { stdout: new LiveOutput(options.tailBytes), stderr: new LiveOutput(options.tailBytes) };
  }

  /** Takes a chunk of a stream in; a flush is scheduled if none is. */
  push(stream: RunStream, chunk: Buffer): void {
    this.tails[stream].push(chunk);
    this.pieces[stream].push(chunk);
    this.unsaved = true;
    this.cancelFlush ??= this.options.clock.setTimeout(() => this.flush(), this.options.flushIntervalMs);
  }

  /** Saves the tails (when anything came since) and hands out what came; `end` takes even a partial character. */
  flush(end = false): void {
    this.cancelFlush = null;
    const texts = { stdout: this.pieces.stdout.take(end), stderr: this.pieces.stderr.take(end) };
    // Saved first, then handed out: a piece whose save failed is not shown live (the tail keeps it).
    if (this.unsaved) {
      this.unsaved = false;
      if (!this.options.save(this.tailsNow())) return;
    }
    for (const stream of ['stdout', 'stderr'] as const) {
      if (texts[stream] !== '') this.options.hand(stream, texts[stream]);
    }
  }

  /** The run's end: no flush is pending any more and the last piece is out. */
  end(): void {
    this.cancelFlush?.();
    this.flush(true);
  }

  tailsNow(): RunOutputTails {
    return {
      stdoutTail: this.tails.stdout.text(),
      stderrTail: this.tails.stderr.text(),
      stdoutTruncated: this.tails.stdout.truncated,
      stderrTruncated: this.tails.stderr.truncated,
    };
  }
}
