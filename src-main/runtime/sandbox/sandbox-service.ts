import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { PermissionMode } from '../../../src-shared/model';
import { bwrapArgs } from './bwrap-args';
import type { SandboxAvailability } from './sandbox-availability';
import { sandboxLayout } from './sandbox-layout';

/** The sandbox for one command: its command line wrapped in bwrap, and its private /tmp to remove after. */
export interface PreparedSandbox {
  /** The host folder that is the command's /tmp. */
  readonly tmpDir: string;
  wrap(argv: readonly string[]): string[];
  dispose(): void;
}

/** How a command of a session runs: in the sandbox, outside it, or not at all (with the reason). */
export type Confinement = { readonly sandbox: PreparedSandbox } | { readonly unconfined: true } | { readonly refuse: string };

export interface SandboxServiceDeps {
  readonly availability: SandboxAvailability;
  readonly dataDir: string;
  /** Default: the user's home folder. */
  readonly home?: string;
  /** Paths hidden beside the built-in deny list, and folders writable beside the workspace. */
  readonly extras?: () => { readonly denied: readonly string[]; readonly writable: readonly string[] };
}

/** Why `auto` cannot be used here, as a person reads it. */
export function autoRefusal(availability: SandboxAvailability): string | null {
  return availability.available ? null : `Auto needs the sandbox, which is not available here: ${availability.reason} Use Ask instead.`;
}

/** The host's sandbox: whether it is available, and a wall around one command in a workspace. */
export class SandboxService {
  constructor(private readonly deps: SandboxServiceDeps) {}

  get availability(): SandboxAvailability {
    return this.deps.availability;
  }

  /** The mode a new session starts in: Auto where the sandbox is available, Ask otherwise. */
  defaultMode(): PermissionMode {
    return this.deps.availability.available ? 'auto' : 'ask';
  }

  /**
   * How a session's command runs in `mode`: Auto and Ask (an approved command) inside the sandbox;
   * Full, or Ask run once without it, outside. Auto without a sandbox is refused, never run outside.
   */
  confine(mode: PermissionMode, workspace: string, options: { unsandboxed?: boolean } = {}): Confinement {
    if (mode === 'full' || (mode === 'ask' && options.unsandboxed === true)) return { unconfined: true };
    if (!this.deps.availability.available) {
      return mode === 'auto' ? { refuse: autoRefusal(this.deps.availability) ?? '' } : { unconfined: true };
    }
    return { sandbox: this.prepare(workspace) };
  }

  prepare(workspace: string): PreparedSandbox {
    const availability = this.deps.availability;
    if (!availability.available) throw new Error(availability.reason);
    const tmpDir = mkdtempSync(path.join(os.tmpdir(), 'cairn-sandbox-'));
    const extras = this.deps.extras?.() ?? { denied: [], writable: [] };
    const layout = sandboxLayout({
      workspace,
      home: this.deps.home ?? os.homedir(),
      dataDir: this.deps.dataDir,
      tmpDir,
      extraDenied: extras.denied,
      extraWritable: extras.writable,
    });
    return {
      tmpDir,
      wrap: (argv) => [availability.bwrap, ...bwrapArgs(layout, argv)],
      dispose: () => rmSync(tmpDir, { recursive: true, force: true }),
    };
  }
}
