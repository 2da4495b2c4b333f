/** Types for sandbox-tools.mjs (a plain Node script), so its tests type-check. */

export interface SandboxToolsSurvey {
  readonly platform: string;
  readonly missing: readonly string[];
  readonly isRoot: boolean;
  readonly isDebian: boolean;
  readonly hasAptGet: boolean;
}

export type SandboxToolsPlan =
  | { readonly kind: 'ready' }
  | { readonly kind: 'apt-install'; readonly note: string; readonly commands: readonly (readonly string[])[] }
  | { readonly kind: 'missing'; readonly message: string };

export declare const SANDBOX_TOOLS: readonly { readonly command: string; readonly pkg: string }[];
export declare function planSandboxTools(survey: SandboxToolsSurvey): SandboxToolsPlan;
export declare function surveySandboxTools(env?: NodeJS.ProcessEnv): SandboxToolsSurvey;
