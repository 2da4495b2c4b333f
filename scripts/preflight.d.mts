/** Types for preflight.mjs (a plain Node script), so its callers and tests type-check. */

export declare function explainSqliteFailure(error: unknown, nodeVersion?: string): string;
export declare function checkNativeSqlite(projectDir?: string): { ok: true } | { ok: false; message: string };
