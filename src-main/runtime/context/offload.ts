import { createHash } from 'node:crypto';
import {
  accessSync,
  constants,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import type { OffloadUseStore } from '../../storage/offload-use-store';

/** Where offloaded tool output lives: one content-addressed file per output under the data directory. */
export const OFFLOAD_DIR = 'context-offload';

const HANDLE = /^[0-9a-f]{64}$/;

/** A stored output's handle, or why it could not be stored (naming the folder and the fix). */
export type OffloadPut =
  { readonly ok: true; readonly handle: string } | { readonly ok: false; readonly reason: string };

/** What releasing unused outputs deleted. */
export interface OffloadRelease {
  readonly files: number;
  readonly bytes: number;
}

/**
 * Whole tool outputs too large to send to the model, kept by the hash of their text so the same
 * output is stored once. The transcript keeps its own copy (the screen shows the whole output); this
 * is what `read_output` pages through. A store that cannot be written is reported, never thrown.
 *
 * With `uses`, each put records the session it was for; a file is deleted only once no session uses
 * it (`releaseUnused`, after sessions are removed). Everything here is synchronous, so a put for one
 * session cannot interleave with the release of the same file for another.
 */
export class OffloadStore {
  readonly dir: string;

  constructor(
    dataDir: string,
    private readonly uses?: Pick<OffloadUseStore, 'note' | 'isUsed' | 'released' | 'forgetReleased'>,
  ) {
    this.dir = join(dataDir, OFFLOAD_DIR);
  }

  /** Whether the folder exists (made if missing) and can be written; the reason when not. */
  check(): string | null {
    try {
      mkdirSync(this.dir, { recursive: true });
      if (!statSync(this.dir).isDirectory()) return this.unusable('it is not a folder');
      accessSync(this.dir, constants.W_OK);
      return null;
    } catch (error) {
      return this.unusable(describe(error));
    }
  }

  /** Stores `text` (once) for `sessionId` and returns its handle, or why it could not. */
  put(text: string, sessionId: string): OffloadPut {
    const handle = createHash('sha256').update(text).digest('hex');
    const path = join(this.dir, `${handle}.txt`);
    try {
      if (!existsSync(path)) {
        mkdirSync(this.dir, { recursive: true });
        const temp = `${path}.${process.pid}.tmp`;
        writeFileSync(temp, text, 'utf8');
        renameSync(temp, path);
      }
      this.uses?.note(handle, sessionId);
      return { ok: true, handle };
    } catch (error) {
      return { ok: false, reason: this.unusable(describe(error)) };
    }
  }

  /** The stored text of a handle, or null when there is none (or the handle is malformed). */
  get(handle: string): string | null {
    if (!HANDLE.test(handle)) return null;
    const path = join(this.dir, `${handle}.txt`);
    try {
      return existsSync(path) ? readFileSync(path, 'utf8') : null;
    } catch {
      return null;
    }
  }

  /** Deletes the files of outputs whose last session was removed and that no session uses again. */
  releaseUnused(): OffloadRelease {
    if (this.uses === undefined) return { files: 0, bytes: 0 };
    let files = 0;
    let bytes = 0;
    for (const handle of this.uses.released()) {
      if (HANDLE.test(handle) && !this.uses.isUsed(handle)) {
        const path = join(this.dir, `${handle}.txt`);
        try {
          const size = statSync(path).size;
          unlinkSync(path);
          files += 1;
          bytes += size;
        } catch (error) {
          // Already gone is what was wanted; anything else is tried again at the next release.
          if ((error as NodeJS.ErrnoException).code !== 'ENOENT') continue;
        }
      }
      this.uses.forgetReleased(handle);
    }
    return { files, bytes };
  }

  private unusable(why: string): string {
    return `The context-offload store ${this.dir} cannot be used (${why}). Move away whatever is at that path so Cairn can make it a folder it can write, then restart Cairn.`;
  }
}

function describe(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOTDIR' || code === 'EEXIST') return 'a file is in the way';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'EROFS') return 'read-only file system';
  return code ?? String(error);
}
