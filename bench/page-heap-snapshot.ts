import type { CDPSession } from '@playwright/test';
import { createWriteStream } from 'node:fs';

/**
 * A heap snapshot of a page's JS heap (after a full collection), written to `path` in the chunks
 * Chromium sends, so the page's heap is never one string in this process. `summariseHeapSnapshot`
 * reads it as it reads the host's.
 */
export async function writePageHeapSnapshot(cdp: CDPSession, path: string): Promise<void> {
  const file = createWriteStream(path);
  const onChunk = ({ chunk }: { chunk: string }) => void file.write(chunk);
  cdp.on('HeapProfiler.addHeapSnapshotChunk', onChunk);
  try {
    await cdp.send('HeapProfiler.collectGarbage');
    await cdp.send('HeapProfiler.takeHeapSnapshot', { reportProgress: false });
  } finally {
    cdp.off('HeapProfiler.addHeapSnapshotChunk', onChunk);
    await new Promise<void>((resolveEnd, reject) =>
      file.end((error?: Error | null) => (error ? reject(error) : resolveEnd())),
    );
  }
}
