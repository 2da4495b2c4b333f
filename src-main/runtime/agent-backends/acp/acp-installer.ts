import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  ACP_INSTALL_OUTPUT_LINES,
  type AcpInstallKey,
  type AcpInstallState,
} from '../../../../src-shared/acp-install-model';
import type { AcpRegistryAgent } from '../../../../src-shared/acp-registry-model';
import { ACP_PRESET_KINDS } from '../../../../src-shared/connection-model';
import type { Logger } from '../../ports/ports';
import { processGroupGone, signalProcessGroup } from '../../shell/process-group';
import { childEnvironment } from '../../shell/child-environment';
import { findAgentProgram } from '../../connections/acp-agent-command';
import { restoreAgentsFolder, snapshotAgentsFolder, type AgentsFolderSnapshot } from './acp-install-snapshot';
import { installTarget, presetTarget, registryTarget, type InstallTarget } from './acp-install-targets';

export interface AcpInstallerDeps {
  readonly dataDir: string;
  readonly now: () => number;
  readonly logger: Logger;
  readonly publish: (install: AcpInstallState) => void;
  /**
   * Where npm takes the packages from instead of the registry: a folder of packed tarballs, or an
   * http(s) address serving them, named as `npm pack` names them (`google-gemini-cli-0.61.0.tgz`).
   * For offline installs (and tests); unset, npm installs the pinned `package@version`.
   */
  readonly installSource?: string;
  /** How long a cancelled npm has after SIGTERM before its group is killed (ms). */
  readonly killGraceMs?: number;
  /** The ACP registry's agents as listed now: its npm agents install like the presets. */
  readonly registryAgents?: () => readonly AcpRegistryAgent[];
}

/** What a finished install left to say: kept in `<data directory>/agents/cairn-installs.json` across restarts. */
interface EndedInstall {
  readonly status: 'installing' | 'failed' | 'cancelled';
  readonly error: string | null;
  readonly output: readonly string[];
  readonly at: number;
  /** While installing: the `node_modules` entries there before, so a start after a crash removes only what the install added. */
  readonly before?: readonly string[];
  /** The package installed (a registry agent's; a preset's is known), so a start after a crash knows what to remove. */
  readonly pkg?: string;
}

interface Job {
  readonly target: InstallTarget;
  output: string[];
  pgid: number | null;
  started: boolean;
  cancelled: boolean;
  /** The agents folder before npm ran: put back when the install fails or is cancelled. */
  before: AgentsFolderSnapshot | null;
  readonly done: Promise<void>;
}

const RECORD_FILE = 'cairn-installs.json';

/**
 * Installs ACP agents on the person's click (the presets, and the ACP registry's npm agents): `npm install --prefix <data directory>/agents
 * <package@version>` as a background job whose output lines are published as they come. One npm runs
 * at a time (they share the folder's package.json); an install asked for while one runs waits its turn.
 * A failed or cancelled install removes what it added to the folder (the package and every dependency
 * npm brought, never what an earlier install left), so nothing half-installed is ever found as
 * installed and no space is lost; one cut short by Cairn stopping is cleaned up at the next start.
 */
export class AcpInstaller {
  private readonly jobs = new Map<AcpInstallKey, Job>();
  private readonly ended = new Map<AcpInstallKey, EndedInstall>();
  private queue: Promise<void> = Promise.resolve();

  constructor(private readonly deps: AcpInstallerDeps) {
    this.loadRecord();
  }

  private get agentsDir(): string {
    return join(this.deps.dataDir, 'agents');
  }

  /** The presets' states, then the registry's npm agents'. */
  list(): AcpInstallState[] {
    const registry = (this.deps.registryAgents?.() ?? []).flatMap((agent) => registryTarget(agent) ?? []);
    return [...ACP_PRESET_KINDS.map(presetTarget), ...registry].map((target) => this.stateOf(target));
  }

  /** What can be installed for a key: a preset, or an npm agent the registry lists now; null otherwise. */
  target(key: AcpInstallKey): InstallTarget | null {
    return (
      this.jobs.get(key)?.target ??
      installTarget(key, (id) => this.deps.registryAgents?.().find((agent) => agent.id === id) ?? null)
    );
  }

  /** The state of an install the key names; throws for a key that names nothing installable (check with `target`). */
  state(kind: AcpInstallKey): AcpInstallState {
    const target = this.target(kind);
    if (target === null) throw new Error(`Nothing to install is named ${kind}`);
    return this.stateOf(target);
  }

  private stateOf(target: InstallTarget): AcpInstallState {
    const { key: kind, pkg, version, sizeHint } = target;
    const base = { kind, packageSpec: `${pkg}@${version}`, sizeHint, updatedAt: this.deps.now() };
    const job = this.jobs.get(kind);
    if (job !== undefined)
      return {
        ...base,
        status: 'installing',
        installedVersion: null,
        location: null,
        error: null,
        output: [...job.output],
      };
    const found = target.found(this.deps.dataDir);
    const ended = this.ended.get(kind);
    const command = target.command(this.deps.dataDir);
    if (found !== null)
      return {
        ...base,
        status: 'installed',
        installedVersion: found.version,
        location: found.location,
        error: null,
        output: [...(ended?.output ?? [])],
        ...(command === null ? {} : { command }),
      };
    if (ended === undefined || ended.status === 'installing')
      return { ...base, status: 'not_installed', installedVersion: null, location: null, error: null, output: [] };
    return {
      ...base,
      status: ended.status,
      installedVersion: null,
      location: null,
      error: ended.error,
      output: [...ended.output],
      updatedAt: ended.at,
    };
  }

  /** Starts installing (or queues it); installed or installing already: the state as it is. */
  install(kind: AcpInstallKey): AcpInstallState {
    const target = this.target(kind);
    if (target === null) throw new Error(`Nothing to install is named ${kind}`);
    const now = this.stateOf(target);
    if (now.status === 'installing' || now.status === 'installed') return now;
    let resolveDone = () => {};
    const job: Job = {
      target,
      output: [],
      pgid: null,
      started: false,
      cancelled: false,
      before: null,
      done: new Promise((resolve) => (resolveDone = resolve)),
    };
    this.jobs.set(kind, job);
    const waiting = [...this.jobs.values()].find((other) => other !== job);
    if (waiting !== undefined) this.note(job, `Waiting for ${waiting.target.label} to finish installing…`);
    this.queue = this.queue
      .then(() => this.run(job))
      .catch((error: unknown) =>
        this.deps.logger.error('An ACP agent install failed unexpectedly', { kind, error: String(error) }),
      )
      .finally(() => {
        resolveDone();
        if (this.jobs.get(kind) !== job) return; // cancelled while it waited: already said
        this.jobs.delete(kind);
        this.deps.publish(this.stateOf(target));
      });
    this.deps.publish(this.stateOf(target));
    return this.stateOf(target);
  }

  /** Cancels a running or waiting install: npm's process group is ended, and what it left of the package removed. */
  async cancel(kind: AcpInstallKey): Promise<AcpInstallState> {
    const job = this.jobs.get(kind);
    if (job === undefined) return this.state(kind);
    job.cancelled = true;
    if (!job.started) {
      // Still waiting for another install: it never runs.
      this.jobs.delete(kind);
      this.finish(job, { status: 'cancelled', error: null });
      this.deps.publish(this.stateOf(job.target));
      return this.stateOf(job.target);
    }
    if (job.pgid !== null) await this.endGroup(job.pgid);
    await job.done;
    return this.stateOf(job.target);
  }

  /** Cairn stops: running installs are ended (the next start cleans up after them). */
  async shutdown(): Promise<void> {
    await Promise.all([...this.jobs.keys()].map((kind) => this.cancel(kind)));
  }

  private async run(job: Job): Promise<void> {
    const { key, label, pkg, version } = job.target;
    if (job.cancelled) return;
    job.started = true;
    const npm = findAgentProgram(process.platform === 'win32' ? 'npm.cmd' : 'npm');
    if (npm === null)
      return this.finish(job, {
        status: 'failed',
        error: `Cairn installs ${label} with npm, and there is no npm on PATH. Install Node.js (with npm) and try again.`,
      });
    mkdirSync(this.agentsDir, { recursive: true });
    job.before = snapshotAgentsFolder(this.agentsDir);
    this.remember(key, {
      status: 'installing',
      error: null,
      output: [],
      at: this.deps.now(),
      before: job.before.entries,
      pkg,
    });
    const spec = this.sourceOf(pkg, version);
    const args = [
      'install',
      '--prefix',
      this.agentsDir,
      '--no-audit',
      '--no-fund',
      '--no-update-notifier',
      '--progress=false',
      '--loglevel=http',
      spec,
    ];
    this.note(job, `npm ${args.join(' ')}`);
    const exit = await new Promise<{ code: number | null; error: string | null }>((resolve) => {
      const child = spawn(npm, args, {
        cwd: this.agentsDir,
        env: childEnvironment({ scrubSecrets: false }),
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true,
      });
      job.pgid = child.pid ?? null;
      if (job.cancelled && job.pgid !== null) void this.endGroup(job.pgid);
      for (const stream of [child.stdout, child.stderr]) {
        let partial = '';
        stream.setEncoding('utf8').on('data', (chunk: string) => {
          const lines = (partial + chunk).split(/\r?\n/);
          partial = lines.pop() ?? '';
          for (const line of lines) if (line.trim() !== '') this.note(job, line.trimEnd());
        });
      }
      child.once('error', (error) => resolve({ code: null, error: error.message }));
      child.once('close', (code) => resolve({ code, error: null }));
    });
    if (job.cancelled) return this.finish(job, { status: 'cancelled', error: null });
    const found = job.target.found(this.deps.dataDir);
    if (exit.code === 0 && found?.location === 'data_dir') return this.finish(job, null);
    const npmErrors = job.output
      .filter((line) => /^npm (error|ERR!)/.test(line))
      .filter((line) => !line.includes('A complete log of this run'));
    const why =
      exit.error ??
      (exit.code === 0
        ? `npm finished, but ${pkg} ${version} is not where Cairn looks (${join(this.agentsDir, 'node_modules', pkg)}).`
        : `npm exited with code ${exit.code ?? 'none'}.`);
    return this.finish(job, { status: 'failed', error: npmErrors.length > 0 ? npmErrors.slice(-6).join('\n') : why });
  }

  /** The package spec npm installs: the pinned one, or its tarball from the install source. */
  private sourceOf(pkg: string, version: string): string {
    const source = this.deps.installSource;
    if (source === undefined) return `${pkg}@${version}`;
    const tarball = `${pkg.replace(/^@/, '').replace('/', '-')}-${version}.tgz`;
    return /^https?:\/\//.test(source) ? `${source.replace(/\/$/, '')}/${tarball}` : join(source, tarball);
  }

  /** Ends an install: success forgets the record; a failure or cancel removes what it added (the package and its dependencies) and keeps why. */
  private finish(job: Job, ended: { status: 'failed' | 'cancelled'; error: string | null } | null): void {
    if (ended === null) {
      this.forget(job.target.key);
      return;
    }
    this.removePackage(job.target.pkg);
    if (job.before !== null) restoreAgentsFolder(this.agentsDir, job.before);
    if (ended.status === 'cancelled') this.note(job, 'Cancelled.');
    this.remember(job.target.key, {
      ...ended,
      pkg: job.target.pkg,
      output: job.output.slice(-ACP_INSTALL_OUTPUT_LINES),
      at: this.deps.now(),
    });
  }

  private note(job: Job, line: string): void {
    job.output = [...job.output, line].slice(-ACP_INSTALL_OUTPUT_LINES);
    if (this.jobs.get(job.target.key) === job) this.deps.publish(this.stateOf(job.target));
  }

  private async endGroup(pgid: number): Promise<void> {
    signalProcessGroup(pgid, 'SIGTERM');
    const deadline = Date.now() + (this.deps.killGraceMs ?? 3000);
    while (!processGroupGone(pgid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    if (!processGroupGone(pgid)) signalProcessGroup(pgid, 'SIGKILL');
  }

  private removePackage(pkg: string): void {
    rmSync(join(this.agentsDir, 'node_modules', pkg), { recursive: true, force: true });
  }

  /** Reads what earlier installs left; one cut short by Cairn stopping is removed and said. */
  private loadRecord(): void {
    let record: Partial<Record<string, EndedInstall>>;
    try {
      record = JSON.parse(readFileSync(join(this.agentsDir, RECORD_FILE), 'utf8')) as Partial<
        Record<string, EndedInstall>
      >;
    } catch {
      return;
    }
    for (const [key, ended] of Object.entries(record)) {
      const kind = key as AcpInstallKey;
      const preset = (ACP_PRESET_KINDS as readonly string[]).includes(key);
      if (!preset && !/^registry:[a-z][a-z0-9-]*$/.test(key)) continue;
      if (ended === undefined || !['installing', 'failed', 'cancelled'].includes(ended.status)) continue;
      if (ended.status === 'installing') {
        const pkg = ended.pkg ?? (preset ? presetTarget(kind as (typeof ACP_PRESET_KINDS)[number]).pkg : null);
        if (pkg !== null) this.removePackage(pkg);
        if (ended.before !== undefined) restoreAgentsFolder(this.agentsDir, { entries: ended.before });
        this.remember(kind, {
          status: 'failed',
          error: 'Cairn stopped during the install; what it had installed was removed. Install again.',
          output: ended.output,
          at: ended.at,
        });
      } else this.ended.set(kind, ended);
    }
  }

  private remember(kind: AcpInstallKey, ended: EndedInstall): void {
    this.ended.set(kind, ended);
    this.saveRecord();
  }

  private forget(kind: AcpInstallKey): void {
    this.ended.delete(kind);
    this.saveRecord();
  }

  private saveRecord(): void {
    mkdirSync(this.agentsDir, { recursive: true });
    const file = join(this.agentsDir, RECORD_FILE);
    writeFileSync(`${file}.tmp`, JSON.stringify(Object.fromEntries(this.ended), null, 2));
    renameSync(`${file}.tmp`, file);
  }
}
