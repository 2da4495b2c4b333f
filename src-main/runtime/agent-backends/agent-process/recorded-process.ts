import { processGone, processGroupGone, signalProcessGroup } from '../../shell/process-group';
import { compareProcessIdentity } from '../../shell/process-identity';
import { waitUntil } from './agent-process';
import type { EndableProcess } from './process-quarantine';

/**
 * A native agent process a dead host left behind, known only by its recorded pid and start identity.
 * It is signalled only when provably the same process (its start identity matches); a pid that now
 * belongs to another program counts as gone and is left alone; a group whose leader cannot be proven
 * ours is never signalled and so cannot be confirmed gone (its session stays quarantined).
 */
export class RecordedProcess implements EndableProcess {
  constructor(
    readonly pid: number,
    private readonly processStart: string | null,
  ) {}

  /** Whether the recorded process is gone, provably another, or provably still ours ('same'); 'unproven' otherwise. */
  fate(): 'gone' | 'other' | 'same' | 'unproven' {
    if (processGroupGone(this.pid)) return 'gone';
    if (processGone(this.pid)) return 'unproven'; // the group outlived its leader: nothing to compare
    const identity = compareProcessIdentity(this.pid, this.processStart);
    return identity === 'same' ? 'same' : identity === 'different' ? 'other' : 'unproven';
  }

  isGone(): boolean {
    const fate = this.fate();
    return fate === 'gone' || fate === 'other';
  }

  async terminate(graceMs: number, confirmMs: number): Promise<boolean> {
    if (this.fate() !== 'same') return this.isGone();
    signalProcessGroup(this.pid, 'SIGTERM');
    if (await waitUntil(() => this.isGone(), graceMs)) return true;
    if (this.fate() === 'same') signalProcessGroup(this.pid, 'SIGKILL');
    return waitUntil(() => this.isGone(), confirmMs);
  }
}
