/** Types for chromium.mjs (a plain Node script), so its tests type-check. */

export declare const SYSTEM_CHROMIUM: readonly string[];
export declare const DEBIAN_PACKAGE: string;
export declare const APT_COMMANDS: readonly (readonly string[])[];
export declare const INSTALL_NOTE: string;
export declare const MISSING_MESSAGE: string;

export interface ChromiumSurvey {
  override: string | null;
  existing: readonly string[];
  bundled: string | null;
  isRoot: boolean;
  isDebian: boolean;
  hasAptGet: boolean;
}

export type ChromiumPlan =
  | { kind: 'use'; path: string }
  | { kind: 'apt-install'; note: string; commands: readonly (readonly string[])[]; then: string }
  | { kind: 'missing'; message: string };

export declare function planChromium(found: ChromiumSurvey): ChromiumPlan;
export declare function surveyChromium(env?: NodeJS.ProcessEnv): Promise<ChromiumSurvey>;
export declare function carryOut(
  plan: ChromiumPlan,
  io: {
    run: (command: string, args: string[], env: NodeJS.ProcessEnv) => number;
    exists?: (path: string) => boolean;
    log?: (line: string) => void;
    error?: (line: string) => void;
  },
): string | null;
export declare function obtainChromium(): Promise<string | null>;
