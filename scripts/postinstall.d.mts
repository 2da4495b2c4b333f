/** Types for postinstall.mjs (a plain Node script), so its tests type-check. */

export declare const ELECTRON_MISSING_NOTE: string;
export declare function postinstallNote(projectDir: string): string | null;
