/** Types for electron-version.mjs (a plain Node script), so its callers and tests type-check. */

export interface ElectronVersions {
  installed: string | null;
  locked: string | null;
  declared: string | null;
}

export declare function pickElectronVersion(found: ElectronVersions): string | null;
export declare function majorOf(version: string | null): string | null;
export declare function findElectronVersions(projectDir: string): ElectronVersions;
export declare function electronVersion(projectDir: string): string | null;
export declare function ensureElectronMajorVersion(env: NodeJS.ProcessEnv, projectDir: string): string;
