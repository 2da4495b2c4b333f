import { mkdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { CDPSession } from 'playwright';
import {
  compareHeapSnapshots,
  describeHeapGrowth,
  summariseHeapSnapshot,
  totalOf,
  type HeapSnapshot,
} from './heap-snapshot-summary';
import { openHostInspector, writeHostHeapSnapshot } from './host-inspector';
import { writePageHeapSnapshot } from './page-heap-snapshot';

/**
 * The endurance benchmark's heap snapshots (`--heap-snapshots`): the host's and each page's, at one
 * moment, written beside the figures; and the breakdown's tables of what grew in each between two
 * such moments.
 */

/** Whose heap: the host (through its inspector) or a page (through its CDP session). */
export type HeapSubject =
  | { readonly kind: 'host'; readonly output: () => string }
  | { readonly kind: 'page'; readonly label: string; readonly cdp: CDPSession };

/** A snapshot written to `path`, when in the run it was taken; null where it could not be taken. */
export interface HeapSnapshotFile {
  readonly subject: string;
  readonly path: string | null;
  readonly minute: number;
}

/**
 * Snapshots of every subject `afterMs` after `started` (at once if that has passed), written to
 * `${base}-${tag}-<subject>.heapsnapshot`. One that fails is said on the console and recorded as null.
 */
export async function snapshotHeaps(
  subjects: readonly HeapSubject[],
  at: { readonly base: string; readonly tag: string; readonly started: number; readonly afterMs: number },
): Promise<HeapSnapshotFile[]> {
  await new Promise((resolveWait) => setTimeout(resolveWait, Math.max(0, at.started + at.afterMs - Date.now())));
  mkdirSync(dirname(at.base), { recursive: true });
  const files: HeapSnapshotFile[] = [];
  for (const [index, subject] of subjects.entries()) {
    const name = subject.kind === 'host' ? 'host' : `page-${index}`;
    const path = `${at.base}-${at.tag}-${name}.heapsnapshot`;
    const minute = (Date.now() - at.started) / 60_000;
    const written = await writeSnapshot(subject, path).then(
      () => true,
      (error: unknown) => {
        console.log(`  (no heap snapshot of ${name} at minute ${minute.toFixed(1)}: ${String(error)})`);
        return false;
      },
    );
    files.push({ subject: subjectName(subject), path: written ? path : null, minute });
  }
  return files;
}

function subjectName(subject: HeapSubject): string {
  return subject.kind === 'host' ? "the host's heap" : `${subject.label}'s JS heap`;
}

async function writeSnapshot(subject: HeapSubject, path: string): Promise<void> {
  if (subject.kind === 'page') return writePageHeapSnapshot(subject.cdp, path);
  const inspector = await openHostInspector(subject.output);
  if (inspector === null) throw new Error('the inspector did not answer');
  try {
    await writeHostHeapSnapshot(inspector, path);
  } finally {
    inspector.close();
  }
}

/** For each subject snapshotted at both moments, the constructors that grew most between them. */
export function heapGrowthSections(first: readonly HeapSnapshotFile[], last: readonly HeapSnapshotFile[]): string[] {
  const read = (path: string) => summariseHeapSnapshot(JSON.parse(readFileSync(path, 'utf8')) as HeapSnapshot);
  return first.flatMap((before, index) => {
    const after = last[index];
    if (before.path === null || after?.path == null)
      return ['', `## What grew in ${before.subject}`, '', 'A heap snapshot could not be taken.'];
    const totalsBefore = read(before.path);
    const totalsAfter = read(after.path);
    return [
      '',
      ...describeHeapGrowth(compareHeapSnapshots(totalsBefore, totalsAfter), {
        before: totalOf(totalsBefore),
        after: totalOf(totalsAfter),
        minutes: [before.minute, after.minute],
        subject: before.subject,
      }),
    ];
  });
}
