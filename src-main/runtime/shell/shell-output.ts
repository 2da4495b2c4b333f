/** Keeps the last `capBytes` bytes of a stream, and whether anything before them was dropped. */
export class OutputTail {
  private chunks: Buffer[] = [];
  private held = 0;
  private seen = 0;

  constructor(private readonly capBytes: number) {}

  push(chunk: Buffer): void {
    this.seen += chunk.byteLength;
    this.chunks.push(chunk);
    this.held += chunk.byteLength;
    // Compact once twice the cap is held, so memory stays bounded whatever the stream's size.
    if (this.held > this.capBytes * 2) {
      const kept = Buffer.concat(this.chunks).subarray(this.held - this.capBytes);
      this.chunks = [Buffer.from(kept)];
      this.held = kept.byteLength;
    }
  }

  get truncated(): boolean {
    return this.seen > this.capBytes;
  }

  get totalBytes(): number {
    return this.seen;
  }

  /** The tail as text. A cut through a multi-byte character at its start is skipped, not mangled. */
  text(): string {
    let bytes = Buffer.concat(this.chunks);
    if (bytes.byteLength > this.capBytes) bytes = bytes.subarray(bytes.byteLength - this.capBytes);
    if (this.truncated) {
      let start = 0;
      while (start < 3 && start < bytes.byteLength && ((bytes[start] ?? 0) & 0xc0) === 0x80) start += 1;
      bytes = bytes.subarray(start);
    }
    return bytes.toString('utf8');
  }
}

/** Keeps the last `maxChars` characters of a text, saying how much came before. */
export function lastChars(text: string, maxChars: number): { text: string; cut: boolean } {
  return text.length <= maxChars ? { text, cut: false } : { text: text.slice(text.length - maxChars), cut: true };
}

/**
 * Live output decoded as it arrives and handed out in coalesced pieces (one per stream per flush).
 * A piece larger than `maxPieceChars` keeps its end, with a marker for what was skipped.
 */
export class LiveOutput {
  private readonly decoder = new TextDecoder('utf-8');
  private pending = '';
  private skipped = 0;

  constructor(private readonly maxPieceChars: number) {}

  push(chunk: Buffer): void {
    this.pending += this.decoder.decode(chunk, { stream: true });
    if (this.pending.length > this.maxPieceChars * 2) this.trim();
  }

  /** The text gathered since the last take ('' when none). `end` also drains the decoder. */
  take(end = false): string {
    if (end) this.pending += this.decoder.decode();
    this.trim();
    const marker = this.skipped > 0 ? `[… ${this.skipped} characters skipped …]\n` : '';
    const piece = marker + this.pending;
    this.pending = '';
    this.skipped = 0;
    return piece;
  }

  private trim(): void {
    if (this.pending.length <= this.maxPieceChars) return;
    this.skipped += this.pending.length - this.maxPieceChars;
    this.pending = this.pending.slice(this.pending.length - this.maxPieceChars);
  }
}
