import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { arch, platform } from 'node:os';
import { join } from 'node:path';
import type { AcpAgentCommand, AcpAgentPreset, AcpPresetKind } from '../../../src-shared/connection-model';
import { findAgentProgram } from './acp-agent-command';

/** A known agent: its npm package (pinned), how to start it, and how it takes a key, a base URL and a model. */
interface PresetSpec {
  readonly label: string;
  readonly pkg: string;
  readonly version: string;
  /** About how much its install takes on disk, as Settings says it before the person installs it (null: not measured). */
  readonly sizeHint: string | null;
  /** The program on PATH used when the package is not installed where Cairn looks. */
  readonly pathProgram: string | null;
  /** The command line, given the package's folder. */
  launch(packageDir: string): { command: string; args: string[] } | null;
  env(access: PresetAccess, model: string | null): Record<string, string>;
}

/** What a preset agent gets from its Cairn connection. */
export interface PresetAccess {
  readonly apiKey: string | null;
  readonly baseUrl: string | null;
}

const PRESETS: Readonly<Record<AcpPresetKind, PresetSpec>> = {
  claude: {
    label: 'Claude',
    pkg: '@agentclientprotocol/claude-agent-acp',
    version: '0.101.0',
    sizeHint: '≈360 MB',
    pathProgram: 'claude-agent-acp',
    launch: (dir) => nodeScript(join(dir, 'dist', 'index.js')),
    env: ({ apiKey, baseUrl }, model) => ({
      ...(apiKey === null ? {} : { ANTHROPIC_API_KEY: apiKey }),
      // Cairn's Anthropic addresses end in /v1; the Claude Agent SDK adds it itself.
      ...(baseUrl === null ? {} : { ANTHROPIC_BASE_URL: baseUrl.replace(/\/v1\/?$/, '') }),
      ...(model === null ? {} : { ANTHROPIC_MODEL: model }),
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      // As root (containers, CI) the agent refuses to start its sessions unless told it runs in a sandbox.
      ...(process.getuid?.() === 0 ? { IS_SANDBOX: '1' } : {}),
    }),
  },
  gemini: {
    label: 'Gemini CLI',
    pkg: '@google/gemini-cli',
    version: '0.61.0',
    // Measured: npm install of 0.61.0 into an empty folder (it bundles its code; node-pty and keytar beside it).
    sizeHint: '≈100 MB',
    pathProgram: 'gemini',
    launch: (dir) => {
      const bin = binOf(dir, 'gemini');
      return bin === null ? null : { ...nodeScript(bin), args: [bin, '--acp'] };
    },
    env: ({ apiKey, baseUrl }, model) => ({
      ...(apiKey === null ? {} : { GEMINI_API_KEY: apiKey }),
      ...(baseUrl === null ? {} : { GOOGLE_GEMINI_BASE_URL: baseUrl }),
      ...(model === null ? {} : { GEMINI_MODEL: model }),
    }),
  },
  opencode: {
    label: 'OpenCode',
    pkg: 'opencode-ai',
    version: '1.18.33',
    sizeHint: '≈355 MB',
    pathProgram: 'opencode',
    launch: (dir) => {
      const binary = openCodeBinary(dir);
      return binary === null ? null : { command: binary, args: ['acp'] };
    },
    env: ({ apiKey, baseUrl }, model) => ({
      // One OpenAI-compatible provider, `cairn`, from the connection; no fetch of models.dev, no updates, no plugins.
      OPENCODE_CONFIG_CONTENT: JSON.stringify({
        ...(model === null ? {} : { model: `cairn/${model}`, small_model: `cairn/${model}` }),
        provider: {
          cairn: {
            npm: '@ai-sdk/openai-compatible',
            name: 'Cairn connection',
            options: { ...(baseUrl === null ? {} : { baseURL: baseUrl }), ...(apiKey === null ? {} : { apiKey }) },
            models: model === null ? {} : { [model]: { name: model } },
          },
        },
        // Cairn decides: OpenCode asks (session/request_permission) before it edits or runs a command.
        permission: { edit: 'ask', bash: 'ask', webfetch: 'ask' },
      }),
      OPENCODE_DISABLE_MODELS_FETCH: '1',
      OPENCODE_DISABLE_AUTOUPDATE: '1',
      OPENCODE_DISABLE_DEFAULT_PLUGINS: '1',
      OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
      OPENCODE_DISABLE_SHARE: '1',
      OPENCODE_DISABLE_CLAUDE_CODE: '1',
    }),
  },
};

/** The pinned npm package of a preset, as `npm install` takes it. */
export function presetPackage(kind: AcpPresetKind): string {
  return `${PRESETS[kind].pkg}@${PRESETS[kind].version}`;
}

/** A preset's package as the installer needs it: its name, pinned version, label and size on disk. */
export function presetInstallInfo(kind: AcpPresetKind): {
  label: string;
  pkg: string;
  version: string;
  sizeHint: string | null;
} {
  const { label, pkg, version, sizeHint } = PRESETS[kind];
  return { label, pkg, version, sizeHint };
}

/** Where a preset agent is found now, as `presetCommand` would start it: its package's folder and version, or its program on PATH; null when nowhere. */
export function presetFound(
  kind: AcpPresetKind,
  dataDir: string | null,
): { location: 'data_dir' | 'beside_cairn' | 'path'; version: string | null } | null {
  const spec = PRESETS[kind];
  const dir = packageDir(spec.pkg, dataDir);
  if (dir !== null && spec.launch(dir) !== null) {
    const location =
      dataDir !== null && dir === join(dataDir, 'agents', 'node_modules', spec.pkg) ? 'data_dir' : 'beside_cairn';
    return { location, version: versionOf(dir) };
  }
  return spec.pathProgram !== null && findAgentProgram(spec.pathProgram) !== null
    ? { location: 'path', version: null }
    : null;
}

function versionOf(dir: string): string | null {
  try {
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version?: unknown };
    return typeof manifest.version === 'string' ? manifest.version : null;
  } catch {
    return null;
  }
}

/**
 * The command a preset agent runs now: its package installed in `<dataDir>/agents` (installed on
 * demand), else the copy beside Cairn (a development checkout's devDependencies), else its program on
 * PATH; with the connection's key, base URL and model in the agent's own variables, and the person's
 * extra variables over them.
 */
export function presetCommand(
  preset: AcpAgentPreset,
  extraEnv: Readonly<Record<string, string>>,
  access: PresetAccess,
  dataDir: string | null,
): AcpAgentCommand | { error: string } {
  const spec = PRESETS[preset.kind];
  const dir = packageDir(spec.pkg, dataDir);
  const launch = dir === null ? null : spec.launch(dir);
  const onPath = spec.pathProgram === null ? null : findAgentProgram(spec.pathProgram);
  const line =
    launch ??
    (onPath === null
      ? null
      : { command: onPath, args: preset.kind === 'gemini' ? ['--acp'] : preset.kind === 'opencode' ? ['acp'] : [] });
  if (line === null) {
    return {
      error: `${spec.label} is not installed. Install it in Settings → Connections (Install), or with: npm install --prefix ${dataDir === null ? '<data directory>' : join(dataDir, 'agents')} ${presetPackage(preset.kind)}`,
    };
  }
  return { ...line, env: { ...spec.env(access, preset.model), ...extraEnv }, preset };
}

/** Where a package is installed: `<dataDir>/agents/node_modules`, else where Node would find it from Cairn's own code. */
function packageDir(pkg: string, dataDir: string | null): string | null {
  const folders = [
    ...(dataDir === null ? [] : [join(dataDir, 'agents', 'node_modules')]),
    ...(createRequire(import.meta.url).resolve.paths(pkg) ?? []),
  ];
  for (const folder of folders) {
    const dir = join(folder, pkg);
    if (existsSync(join(dir, 'package.json'))) return dir;
  }
  return null;
}

function nodeScript(script: string): { command: string; args: string[] } {
  return { command: process.execPath, args: [script] };
}

/** A package's `bin` entry, as a full path. */
function binOf(dir: string, name: string): string | null {
  try {
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
      bin?: string | Record<string, string>;
    };
    const bin = typeof manifest.bin === 'string' ? manifest.bin : manifest.bin?.[name];
    return bin === undefined ? null : join(dir, bin);
  } catch {
    return null;
  }
}

/** OpenCode's native binary: its platform package (beside `opencode-ai`), else the copy its postinstall made. */
function openCodeBinary(dir: string): string | null {
  const os = platform() === 'win32' ? 'windows' : platform();
  const name = os === 'windows' ? 'opencode.exe' : 'opencode';
  for (const candidate of [
    join(dir, '..', `opencode-${os}-${arch()}`, 'bin', name),
    join(dir, 'bin', 'opencode.exe'),
  ]) {
    if (findAgentProgram(candidate) !== null) return candidate;
  }
  return null;
}
