/** Types for run-parallel.mjs (a plain Node script), so its tests type-check. */

export interface ScriptResult {
  readonly name: string;
  readonly status: number;
  readonly output: string;
  readonly seconds: number;
}
export declare function runScript(name: string, options?: { npm?: string; cwd?: string }): Promise<ScriptResult>;
export declare function summaryLine(result: Pick<ScriptResult, 'name' | 'status' | 'seconds'>): string;
