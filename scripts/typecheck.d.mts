/** Types for typecheck.mjs (a plain Node script), so its tests type-check. */

export declare const PARTIAL_NOTE: string;
export declare function typecheckPlan(found: { electronTypesInstalled: boolean }): {
  project: string;
  note: string | null;
};
export declare function electronTypesInstalled(projectDir: string): boolean;
