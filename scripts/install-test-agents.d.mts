/** Types for install-test-agents.mjs (a plain Node script), so its tests type-check. */

export declare const AGENTS_DIR: string;
export declare const INSTALL_ARGS: readonly string[];

export interface AgentProgram {
  readonly agent: string;
  readonly path: string;
  /** The arguments that make a native binary answer and exit; null when only its presence is checked. */
  readonly answers: readonly string[] | null;
}

export interface RunResult {
  readonly status: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout?: string | null;
  readonly stderr?: string | null;
  readonly error?: Error;
}

export declare function agentPrograms(modules: string, os?: NodeJS.Platform, cpu?: string): AgentProgram[];
export declare function failureOf(result: RunResult): string | null;
export declare function checkPrograms(
  programs: readonly AgentProgram[],
  io?: { exists?: (path: string) => boolean; run?: (path: string, args: readonly string[]) => RunResult },
): string[];
export declare function installAndCheck(io: {
  install: () => number;
  check: () => string[];
  clean: () => void;
  log?: (line: string) => void;
  error?: (line: string) => void;
  attempts?: number;
}): number;
