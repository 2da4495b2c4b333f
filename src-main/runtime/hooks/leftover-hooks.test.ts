import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from '../../testing/wait-for';
import { processesMarkedWith, runMarker } from '../shell/escaped-processes';
import { runHookProcess, type HookProcessResult } from './hook-process';
import { newHookMarker, stopLeftoverHooks } from './leftover-hooks';

const folders: string[] = [];
const stops: AbortController[] = [];

afterEach(() => {
  for (const stop of stops.splice(0)) stop.abort();
  for (const folder of folders)
    for (const { pid } of processesMarkedWith(runMarker(folder, 'hooks.'))) process.kill(pid, 'SIGKILL');
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** A hook that runs until stopped, one of its processes escaping its group (setsid). */
function longHook(dataDir: string, marker: string): Promise<HookProcessResult> {
  const stop = new AbortController();
  stops.push(stop);
  return runHookProcess({
    command: 'setsid sleep 300 & sleep 300',
    input: '{}',
    cwd: dataDir,
    env: {},
    timeoutMs: 600_000,
    signal: stop.signal,
    marker,
  });
}

const carrying = (marker: string) => processesMarkedWith(marker).length;

describe('hooks a dead host left running', () => {
  it('are stopped by the next host of the same data directory, escaped ones included; its own and other data directories’ are left alone', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'cairn-hooks-'));
    const otherDir = mkdtempSync(path.join(tmpdir(), 'cairn-hooks-other-'));
    folders.push(dataDir, otherDir);
    const earlierHost = newHookMarker(dataDir);
    const current = newHookMarker(dataDir);
    const earlier = `${earlierHost}.1`;
    const own = `${current}.1`;
    const elsewhere = `${newHookMarker(otherDir)}.1`;
    const left = longHook(dataDir, earlier);
    void longHook(dataDir, own);
    void longHook(otherDir, elsewhere);
    // sh, sleep and the escaped sleep of each.
    await waitFor(() => carrying(earlier) === 3 && carrying(own) === 3 && carrying(elsewhere) === 3);
    expect(carrying(runMarker(dataDir, 'hooks.'))).toBe(6);

    expect(stopLeftoverHooks(dataDir, current, 200)).toBe(3);
    await waitFor(() => carrying(earlier) === 0);
    expect((await left).exitCode).toBeNull();
    expect(carrying(own)).toBe(3);
    expect(carrying(elsewhere)).toBe(3);
    expect(stopLeftoverHooks(dataDir, current, 200)).toBe(0);
  });

  it('Stop ends what a hook started outside its process group', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'cairn-hooks-'));
    folders.push(dataDir);
    const marker = `${newHookMarker(dataDir)}.1`;
    const running = longHook(dataDir, marker);
    await waitFor(() => carrying(marker) === 3);
    stops.at(-1)?.abort();
    expect((await running).failure).toBe('stopped');
    await waitFor(() => carrying(marker) === 0);
  });
});
