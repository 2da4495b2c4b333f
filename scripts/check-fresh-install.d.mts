/** Types for check-fresh-install.mjs (a plain Node script), so its tests type-check. */

export declare const SCRIPTS_WARNING: RegExp;
export declare function freshEnv(env: NodeJS.ProcessEnv): Record<string, string>;
export declare function judgeInstall(run: { status: number; output: string; sqliteLoads: boolean }): {
  ok: boolean;
  problems: string[];
};
