import { z } from 'zod';
import { wellFormedString } from './well-formed-string';
import type { AcpPresetKind } from './connection-model';

/**
 * The ACP agent registry (https://agentclientprotocol.com, `registry.json`): the agents anyone can
 * list, each with how it is distributed. Read from the network, so untrusted: every entry is checked
 * on its own (a malformed one is dropped and counted, never the whole list); fields Cairn does not
 * know are ignored. Icons are not kept: an SVG from the network is never shown.
 */
export const ACP_REGISTRY_URL = 'https://cdn.agentclientprotocol.com/registry/v1/latest/registry.json';

const text = (max: number) => wellFormedString().trim().min(1).max(max);
const args = z.array(wellFormedString().max(1_000)).max(50).optional();
const env = z.record(wellFormedString().max(200), wellFormedString().max(4_000)).optional();

const packageDistribution = z.object({ package: text(300), args, env });
/** An npm package by name and (optionally) exact version: never a URL, a path or a git address, which npm would also take. */
const NPM_SPEC = /^(@[a-z0-9][a-z0-9._~-]*\/)?[a-z0-9][a-z0-9._~-]*(@[0-9]+\.[0-9]+\.[0-9]+[0-9A-Za-z.+-]*)?$/;
/** An address the page may link to: http(s) only (never `javascript:` or `file:`). */
const webAddress = () =>
  wellFormedString()
    .url()
    .max(2_000)
    .refine((url) => /^https?:\/\//i.test(url), 'an http(s) address');
const binaryTarget = z.object({ archive: webAddress(), cmd: text(500), args, env });

const agentEntry = z.object({
  id: wellFormedString()
    .max(100)
    .regex(/^[a-z][a-z0-9-]*$/),
  name: text(200),
  version: wellFormedString()
    .max(100)
    .regex(/^[0-9]+\.[0-9]+\.[0-9]+[0-9A-Za-z.+-]*$/),
  description: text(2_000),
  repository: webAddress().optional().catch(undefined),
  authors: z.array(wellFormedString().max(200)).max(50).optional().catch(undefined),
  license: wellFormedString().max(200).optional().catch(undefined),
  distribution: z
    .object({
      npx: packageDistribution.refine((npx) => NPM_SPEC.test(npx.package), 'an npm package name').optional(),
      uvx: packageDistribution.optional(),
      binary: z.record(wellFormedString(), binaryTarget).optional(),
    })
    .refine(
      (value) => value.npx !== undefined || value.uvx !== undefined || value.binary !== undefined,
      'a distribution',
    ),
});

export type AcpRegistryAgentEntry = z.infer<typeof agentEntry>;

/** How Cairn can set an agent up: one of its presets, npm (its installer), or not by itself (binary, uvx). */
export type AcpRegistryInstall =
  | { readonly kind: 'preset'; readonly preset: AcpPresetKind }
  | { readonly kind: 'npm'; readonly packageSpec: string; readonly args: readonly string[] }
  | {
      readonly kind: 'manual';
      readonly distribution: 'binary' | 'uvx';
      /** The command line to start it once the person has it (`uvx package args`, or the archive's `cmd args`). */
      readonly suggestedCommand: string;
      /** Where to get it from: the archive for this machine, or the PyPI package. */
      readonly source: string | null;
    };

export interface AcpRegistryAgent {
  readonly id: string;
  readonly name: string;
  readonly version: string;
  readonly description: string;
  readonly repository: string | null;
  readonly license: string | null;
  readonly authors: readonly string[];
  readonly install: AcpRegistryInstall;
}

/** Where the list came from: the registry just now or earlier (its last good copy), or the snapshot shipped with Cairn. */
export type AcpRegistrySource = 'network' | 'cache' | 'snapshot';

export interface AcpRegistryList {
  readonly agents: readonly AcpRegistryAgent[];
  readonly source: AcpRegistrySource;
  /** When this list was fetched from the registry (ms since the epoch); for the snapshot, when it was taken. */
  readonly asOf: number;
  /** Entries left out because they were malformed. */
  readonly dropped: number;
  /** Why the last refresh failed (the list shown is the previous one), or null. */
  readonly refreshError: string | null;
}

/** Registry ids of the agents Cairn has presets for: these install and start as the preset does. */
export const REGISTRY_PRESETS: Readonly<Record<string, AcpPresetKind>> = {
  'claude-code-acp': 'claude',
  gemini: 'gemini',
  opencode: 'opencode',
};

/** The platform key of the registry's binaries for this machine (`linux-x86_64`), from Node's names. */
export function registryPlatform(platform: string, arch: string): string {
  const os = platform === 'win32' ? 'windows' : platform;
  const cpu = arch === 'x64' ? 'x86_64' : arch === 'arm64' ? 'aarch64' : arch;
  return `${os}-${cpu}`;
}

/**
 * Reads a registry document: throws (with a reason) when it is not a registry at all; otherwise
 * keeps every well-formed agent, drops and counts the rest (and duplicates of an id).
 */
export function parseAcpRegistry(document: unknown, platform: string): { agents: AcpRegistryAgent[]; dropped: number } {
  const shape = z
    .object({ version: wellFormedString().max(100), agents: z.array(z.unknown()).max(5_000) })
    .safeParse(document);
  if (!shape.success) throw new Error('not an ACP registry (no "version" and "agents" list)');
  const agents: AcpRegistryAgent[] = [];
  const seen = new Set<string>();
  let dropped = 0;
  for (const raw of shape.data.agents) {
    const entry = agentEntry.safeParse(raw);
    if (!entry.success || seen.has(entry.data.id)) {
      dropped += 1;
      continue;
    }
    seen.add(entry.data.id);
    agents.push(registryAgent(entry.data, platform));
  }
  return { agents, dropped };
}

function registryAgent(entry: AcpRegistryAgentEntry, platform: string): AcpRegistryAgent {
  return {
    id: entry.id,
    name: entry.name,
    version: entry.version,
    description: entry.description,
    repository: entry.repository ?? null,
    license: entry.license ?? null,
    authors: entry.authors ?? [],
    install: installOf(entry, platform),
  };
}

function installOf(entry: AcpRegistryAgentEntry, platform: string): AcpRegistryInstall {
  const preset = REGISTRY_PRESETS[entry.id];
  if (preset !== undefined) return { kind: 'preset', preset };
  const { npx, uvx, binary } = entry.distribution;
  if (npx !== undefined) return { kind: 'npm', packageSpec: pinned(npx.package, entry.version), args: npx.args ?? [] };
  if (uvx !== undefined)
    return {
      kind: 'manual',
      distribution: 'uvx',
      suggestedCommand: commandLine(['uvx', uvx.package, ...(uvx.args ?? [])]),
      source: `https://pypi.org/project/${encodeURIComponent(uvx.package.split(/[<>=!@\s]/)[0] ?? uvx.package)}/`,
    };
  const target = binary?.[platform];
  return {
    kind: 'manual',
    distribution: 'binary',
    suggestedCommand: commandLine([target?.cmd.replace(/^\.\//, '') ?? entry.id, ...(target?.args ?? [])]),
    source: target?.archive ?? null,
  };
}

/** `package@version`: the entry's own pin, else the entry's version. */
function pinned(spec: string, version: string): string {
  return splitPackageSpec(spec).version === '' ? `${spec}@${version}` : spec;
}

/** Words as Cairn's agent command reads them: one with a space or a quote quoted. */
function commandLine(words: readonly string[]): string {
  return words.map((word) => (/[\s"'\\]/.test(word) ? `"${word.replace(/(["\\])/g, '\\$1')}"` : word)).join(' ');
}

/** The name and version of an npm `package@version` spec (`@scope/name@1.2.3` → `@scope/name`, `1.2.3`). */
export function splitPackageSpec(spec: string): { name: string; version: string } {
  const at = spec.lastIndexOf('@');
  return at > 0 ? { name: spec.slice(0, at), version: spec.slice(at + 1) } : { name: spec, version: '' };
}
