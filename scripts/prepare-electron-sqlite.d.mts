/** Types for prepare-electron-sqlite.mjs (a plain Node script), so its tests type-check. */

export declare const PROJECT_DIR: string;
export declare const ELECTRON_HEADERS_URL: string;

export declare class PrepareError extends Error {}

export interface ElectronSqlitePaths {
  readonly dir: string;
  readonly binary: string;
  readonly info: string;
}

export interface InstalledVersions {
  readonly electron: string | null;
  readonly betterSqlite3: string | null;
  readonly electronAbi: string | null;
}

export interface BuildInfo {
  readonly electron: string;
  readonly betterSqlite3: string;
  readonly platform: string;
  readonly arch: string;
}

export declare function electronSqlitePaths(projectDir: string): ElectronSqlitePaths;
export declare function validVersion(value: unknown): string | null;
export declare function installedVersions(projectDir: string): InstalledVersions;
export declare function expectedBuildInfo(options: {
  electronVersion: string;
  betterSqlite3Version: string;
  platform: string;
  arch: string;
}): BuildInfo;
export declare function isBuildCurrent(recorded: unknown, expected: BuildInfo): boolean;
export declare function electronSqliteStatus(
  projectDir: string,
  platform?: string,
  arch?: string,
): { current: boolean; versions: InstalledVersions; paths: ElectronSqlitePaths; expected: BuildInfo | null };
export declare function prebuildInstallArgs(options: {
  electronVersion: string;
  platform: string;
  arch: string;
}): string[];
export declare function nodeGypArgs(options: { electronVersion: string; arch: string; home: string }): string[];
export declare function nodeGypCandidates(options: {
  projectDir: string;
  npmExecPath: string | undefined;
  execPath: string;
  platform: string;
}): string[];
export declare function prepareElectronSqlite(options?: {
  projectDir?: string;
  force?: boolean;
  log?: (line: string) => void;
}): string;
