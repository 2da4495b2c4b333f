import { mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { waitFor } from './wait-for';

/**
 * Real processes that SIGKILL cannot end, for tests of what Cairn does when a process cannot be
 * confirmed gone. The cgroup-v1 freezer holds a frozen task in uninterruptible sleep: a SIGKILL
 * stays pending until the group is thawed, exactly like a process stuck in the kernel (a hung
 * mount, a dead disk). Needs root and a writable freezer hierarchy; `freezerAvailable` says.
 */
const FREEZER_ROOT = '/sys/fs/cgroup/freezer';

export function freezerAvailable(): boolean {
  const probe = join(FREEZER_ROOT, `cairn-probe-${process.pid}`);
  try {
    mkdirSync(probe);
    rmdirSync(probe);
    return true;
  } catch {
    return false;
  }
}

export interface FrozenProcess {
  /** Lets the process run again (a pending SIGKILL then ends it); the cgroup is removed once empty. */
  thaw(): Promise<void>;
}

export async function freezeProcess(pid: number): Promise<FrozenProcess> {
  const group = join(FREEZER_ROOT, `cairn-test-${process.pid}-${pid}`);
  mkdirSync(group, { recursive: true });
  // cgroup.procs moves every thread of the process (`tasks` would move only the one thread id).
  writeFileSync(join(group, 'cgroup.procs'), String(pid));
  writeFileSync(join(group, 'freezer.state'), 'FROZEN');
  await waitFor(() => readFileSync(join(group, 'freezer.state'), 'utf8').trim() === 'FROZEN', {
    message: `process ${pid} to freeze`,
    timeoutMs: 5_000,
  });
  return {
    async thaw() {
      writeFileSync(join(group, 'freezer.state'), 'THAWED');
      await waitFor(
        () => {
          try {
            rmdirSync(group);
            return true;
          } catch {
            return false;
          }
        },
        { message: `the freezer group of ${pid} to empty`, timeoutMs: 10_000 },
      );
    },
  };
}
