import type { ShellRunRecord } from '../../src-shared/shell-run-model';
import { isLiveShellRunStatus } from '../../src-shared/shell-run-model';
import { groupAlive, killMarkedGroup, markedProcesses } from './processes';
import type { SoakClient } from './soak-client';

/**
 * Nothing Cairn started may outlive a crash unseen (ARCHITECTURE.md §4 invariant 8). After a restart,
 * every process group of the soak's shell commands that is still alive must be either ended by the
 * new host within `waitMs` or recorded as still running. The others are unseen; the soak then ends
 * them itself, so they do not pile up.
 */
export interface OrphanCheckOptions {
  readonly client: SoakClient;
  /** The marker in the command lines of this cycle's shell commands. */
  readonly marker: string;
  /** What `survivors` found alive after the kill, before the restart. */
  readonly survivors: ReadonlyMap<number, string>;
  readonly sessionIds: readonly string[];
  /** When the new host was started: its own commands are not orphans. */
  readonly restartedAt: number;
  readonly waitMs: number;
  readonly pollMs: number;
}

export interface OrphanCheck {
  /** Groups of the cycle's commands alive after the kill, before the restart. */
  readonly survived: number;
  readonly unseen: readonly string[];
}

/** A record that tells the person the process may still be running (status or message). */
export function recordSaysStillRunning(run: ShellRunRecord, restartedAt: number): boolean {
  if (isLiveShellRunStatus(run.status)) return true;
  const message = run.failureMessage ?? '';
  return (
    run.startedAt < restartedAt &&
    /\b(?:still|may|might|possibly)\b[^.;]*\b(?:running|alive)\b/i.test(message) &&
    !/\bstopped\b/i.test(message)
  );
}

async function shellRuns(client: SoakClient, sessionIds: readonly string[]): Promise<ShellRunRecord[]> {
  const runs: ShellRunRecord[] = [];
  for (const sessionId of sessionIds)
    runs.push(...(await client.call('shell.list', { sessionId, limit: 500 })).shellRuns);
  return runs;
}

/** The process groups of the cycle's commands still alive once the host is dead: pgid → command line. */
export function survivors(marker: string): Map<number, string> {
  const groups = new Map<number, string>();
  for (const process of markedProcesses(marker))
    if (!groups.has(process.pgrp)) groups.set(process.pgrp, process.commandLine);
  return groups;
}

export async function checkOrphans(options: OrphanCheckOptions): Promise<OrphanCheck> {
  const { client, marker, survivors: groups } = options;
  if (groups.size === 0) return { survived: 0, unseen: [] };

  const deadline = Date.now() + options.waitMs;
  let runs = await shellRuns(client, options.sessionIds);
  const unaccounted = () =>
    [...groups.keys()].filter((pgrp) => {
      if (!groupAlive(pgrp)) return false;
      const run = runs.find((candidate) => candidate.pid === pgrp);
      return run === undefined || !recordSaysStillRunning(run, options.restartedAt);
    });
  let remaining = unaccounted();
  while (remaining.length > 0 && Date.now() < deadline) {
    if (!(await client.pause(options.pollMs))) break;
    runs = await shellRuns(client, options.sessionIds);
    remaining = unaccounted();
  }

  const unseen = remaining.map((pgrp) => {
    const commandLine = groups.get(pgrp) ?? '';
    const run = runs.find((candidate) => candidate.pid === pgrp);
    // `bash -c <command>`: the record's command names the run even when it holds no pid.
    const byCommand = runs.find(
      (candidate) => candidate.startedAt < options.restartedAt && commandLine.endsWith(candidate.command),
    );
    const recorded =
      run !== undefined
        ? `the record says ${run.status}: ${JSON.stringify(run.failureMessage)}`
        : byCommand !== undefined
          ? `its shell run ${byCommand.shellRunId} is recorded ${byCommand.status} with pid ${String(byCommand.pid)}: ${JSON.stringify(byCommand.failureMessage)}`
          : 'no shell run in the record has its pid or its command';
    return `process group ${pgrp} (${JSON.stringify(commandLine)}) still runs ${options.waitMs} ms after the restart; ${recorded}`;
  });
  // The soak's own clean-up: every group of the dead host it found, seen or not (a recorded one would run on).
  for (const pgrp of groups.keys()) {
    const ownedByNewHost = runs.some((run) => run.pid === pgrp && run.startedAt >= options.restartedAt);
    if (!ownedByNewHost) killMarkedGroup(pgrp, marker);
  }
  return { survived: groups.size, unseen };
}
