import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Where offloaded tool output lives: one content-addressed file per output under the data directory. */
export const OFFLOAD_DIR = 'context-offload';

const HANDLE = /^[0-9a-f]{64}$/;

/**
 * Whole tool outputs too large to send to the model, kept by the hash of their text so the same
 * output is stored once. The transcript keeps its own copy (the screen shows the whole output); this
 * is what `read_output` pages through.
 */
export class OffloadStore {
  private readonly dir: string;

  constructor(dataDir: string) {
    this.dir = join(dataDir, OFFLOAD_DIR);
  }

  /** Stores `text` (once) and returns its handle. */
  put(text: string): string {
    const handle = createHash('sha256').update(text).digest('hex');
    const path = join(this.dir, `${handle}.txt`);
    if (!existsSync(path)) {
      mkdirSync(this.dir, { recursive: true });
      const temp = `${path}.${process.pid}.tmp`;
      writeFileSync(temp, text, 'utf8');
      renameSync(temp, path);
    }
    return handle;
  }

  /** The stored text of a handle, or null when there is none (or the handle is malformed). */
  get(handle: string): string | null {
    if (!HANDLE.test(handle)) return null;
    const path = join(this.dir, `${handle}.txt`);
    return existsSync(path) ? readFileSync(path, 'utf8') : null;
  }
}
