import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { registryIdOf, type AcpInstallKey } from '../../../../src-shared/acp-install-model';
import { splitPackageSpec, type AcpRegistryAgent } from '../../../../src-shared/acp-registry-model';
import { ACP_PRESET_KINDS, type AcpPresetKind } from '../../../../src-shared/connection-model';
import { presetFound, presetInstallInfo } from '../../connections/acp-presets';

/** What the installer installs for a key: the package, pinned, and where it is found once installed. */
export interface InstallTarget {
  readonly key: AcpInstallKey;
  readonly label: string;
  readonly pkg: string;
  readonly version: string;
  readonly sizeHint: string | null;
  found(dataDir: string): { location: 'data_dir' | 'beside_cairn' | 'path'; version: string | null } | null;
  /** A registry agent found in the data directory: the command line that starts it. */
  command(dataDir: string): string | null;
}

export function presetTarget(kind: AcpPresetKind): InstallTarget {
  const { label, pkg, version, sizeHint } = presetInstallInfo(kind);
  return {
    key: kind,
    label,
    pkg,
    version,
    sizeHint,
    found: (dataDir) => presetFound(kind, dataDir),
    command: () => null,
  };
}

/**
 * An npm agent of the ACP registry (its `npx` distribution, pinned to the entry's version): installed
 * into the data directory like a preset, and started by its package's program there (as `npx` would
 * start it) with the entry's arguments.
 */
export function registryTarget(agent: AcpRegistryAgent): InstallTarget | null {
  if (agent.install.kind !== 'npm') return null;
  const { name, version } = splitPackageSpec(agent.install.packageSpec);
  const args = agent.install.args;
  const packageDir = (dataDir: string) => join(dataDir, 'agents', 'node_modules', name);
  const installed = (dataDir: string) => readManifest(packageDir(dataDir));
  return {
    key: `registry:${agent.id}`,
    label: agent.name,
    pkg: name,
    version,
    sizeHint: null,
    found: (dataDir) => {
      const manifest = installed(dataDir);
      return manifest === null || binName(name, manifest) === null
        ? null
        : { location: 'data_dir', version: typeof manifest.version === 'string' ? manifest.version : null };
    },
    command: (dataDir) => {
      const manifest = installed(dataDir);
      const bin = manifest === null ? null : binName(name, manifest);
      if (bin === null) return null;
      return [join(dataDir, 'agents', 'node_modules', '.bin', bin), ...args].map(quoted).join(' ');
    },
  };
}

/** The target of a key: a preset's, or a registry npm agent's as the registry lists it now (null: not an npm agent of it). */
export function installTarget(
  key: AcpInstallKey,
  registryAgent: (id: string) => AcpRegistryAgent | null,
): InstallTarget | null {
  const id = registryIdOf(key);
  if (id === null)
    return (ACP_PRESET_KINDS as readonly string[]).includes(key) ? presetTarget(key as AcpPresetKind) : null;
  const agent = registryAgent(id);
  return agent === null ? null : registryTarget(agent);
}

interface Manifest {
  readonly version?: unknown;
  readonly bin?: unknown;
}

function readManifest(dir: string): Manifest | null {
  try {
    return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest;
  } catch {
    return null;
  }
}

/** The program `npx <package>` runs: its only bin, else the one named as the package (without its scope). */
function binName(pkg: string, manifest: Manifest): string | null {
  const plain = pkg.replace(/^@[^/]+\//, '');
  if (typeof manifest.bin === 'string') return plain;
  if (typeof manifest.bin !== 'object' || manifest.bin === null) return null;
  const names = Object.keys(manifest.bin).filter((bin) => /^[A-Za-z0-9._-]+$/.test(bin));
  if (names.length === 1) return names[0] ?? null;
  return names.includes(plain) ? plain : null;
}

/** A word as Cairn's agent command reads it: quoted when it holds a space, a quote or a backslash. */
function quoted(word: string): string {
  return /[\s"'\\]/.test(word) ? `"${word.replace(/(["\\])/g, '\\$1')}"` : word;
}
