/** Types for start.mjs (a plain Node script), so its tests type-check. */

export declare const DESKTOP_OUTPUTS: readonly string[];
export declare const DESKTOP_SOURCES: readonly string[];
export declare const HEADLESS_OUTPUTS: readonly string[];
export declare const HEADLESS_SOURCES: readonly string[];
export declare const NO_ELECTRON_NOTE: string;

export type StartStep =
  | { kind: 'note'; text: string }
  | { kind: 'check-sqlite' }
  | { kind: 'prepare-sqlite' }
  | { kind: 'build' }
  | { kind: 'launch-electron'; electronPath: string }
  | { kind: 'serve' };

export declare function electronBinary(projectDir: string): string | null;
export declare function isBuildStale(outputTimes: readonly (number | null)[], newestSourceTime: number): boolean;
export declare function planStart(found: {
  electronPath: string | null;
  sqliteReady: boolean;
  desktopStale: boolean;
  headlessStale: boolean;
}): StartStep[];
export declare function newestModification(projectDir: string, paths: readonly string[]): number;
/** Each path's modification time, or null where it is missing. */
export declare function modificationTimes(projectDir: string, paths: readonly string[]): (number | null)[];
export declare function packageBin(projectDir: string, name: string, command?: string): string;
export declare function childEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv;
