import { execFile } from 'node:child_process';
import { accessSync, constants, existsSync, readdirSync, statSync } from 'node:fs';
import { delimiter, dirname, isAbsolute, join } from 'node:path';
import { childEnvironment } from '../shell/child-environment';

/** Where the codex binary was found, and how. */
export interface CodexBinary {
  readonly path: string;
  readonly source: 'given' | 'dependency' | 'path';
}

const PLATFORM_PACKAGES: Readonly<Record<string, string>> = {
  'linux-x64': 'codex-linux-x64',
  'linux-arm64': 'codex-linux-arm64',
  'darwin-x64': 'codex-darwin-x64',
  'darwin-arm64': 'codex-darwin-arm64',
  'win32-x64': 'codex-win32-x64',
  'win32-arm64': 'codex-win32-arm64',
};

/**
 * Finds codex: a path the person gave (or `CAIRN_CODEX_BIN`), else the native binary of the
 * `@openai/codex` dependency (its platform package, so no Node wrapper sits between Cairn and Codex),
 * else `codex` on PATH. Null when there is none.
 */
export function findCodexBinary(given: string | null, env: NodeJS.ProcessEnv = process.env): CodexBinary | null {
  const explicit = given ?? env.CAIRN_CODEX_BIN ?? null;
  if (explicit !== null && explicit !== '') return existsSync(explicit) ? { path: explicit, source: 'given' } : null;
  const dependency = dependencyBinary();
  if (dependency !== null) return { path: dependency, source: 'dependency' };
  const exe = process.platform === 'win32' ? 'codex.exe' : 'codex';
  for (const folder of (env.PATH ?? '').split(delimiter)) {
    if (folder !== '' && existsSync(join(folder, exe))) return { path: join(folder, exe), source: 'path' };
  }
  return null;
}

function dependencyBinary(): string | null {
  const platformPackage = PLATFORM_PACKAGES[`${process.platform}-${process.arch}`];
  if (platformPackage === undefined) return null;
  const exe = process.platform === 'win32' ? 'codex.exe' : 'codex';
  const starts = [process.cwd(), ...(process.argv[1] === undefined ? [] : [dirname(process.argv[1])])];
  for (const start of starts) {
    for (let folder = start; ; folder = dirname(folder)) {
      const vendor = join(folder, 'node_modules', '@openai', platformPackage, 'vendor');
      if (existsSync(vendor)) {
        for (const triple of readdirSync(vendor)) {
          const candidate = join(vendor, triple, 'bin', exe);
          if (existsSync(candidate)) return candidate;
        }
      }
      if (dirname(folder) === folder) break;
    }
  }
  return null;
}

/** Why a path a person gives cannot be the codex binary, for them to read; null when it can. */
export function codexBinaryProblem(path: string): string | null {
  if (!isAbsolute(path)) return `Give the full path of the codex binary (${path} is relative).`;
  let isFile: boolean;
  try {
    isFile = statSync(path).isFile();
  } catch {
    return `There is no file at ${path}.`;
  }
  if (!isFile) return `${path} is a folder, not the codex binary.`;
  try {
    accessSync(path, constants.X_OK);
  } catch {
    return `${path} is not executable: pick the codex binary itself, or make it executable (chmod +x).`;
  }
  return null;
}

/** `codex --version` → "0.171.0"; rejects after `boundMs` or on a failure. */
export function codexVersion(binary: string, boundMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      binary,
      ['--version'],
      { timeout: boundMs, killSignal: 'SIGKILL', env: childEnvironment({ scrubSecrets: false }) },
      (error, stdout) => {
        if (error !== null) return reject(new Error(`codex --version failed: ${error.message}`));
        const match = /(\d+\.\d+\.\d+\S*)/.exec(stdout);
        resolve(match?.[1] ?? stdout.trim());
      },
    );
  });
}
