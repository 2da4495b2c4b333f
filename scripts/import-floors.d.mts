/** Types for import-floors.mjs (a plain Node script), so its tests type-check. */

/** `{ from: { to: ['from-file → to-file', …] } }` between the runtime's units. */
export type Arrows = Record<string, Record<string, string[]>>;
export interface Tier {
  readonly name: string;
  readonly units: readonly string[];
}

export declare const RUNTIME: string;
export declare const TIERS: readonly Tier[];
export declare function unitOf(file: string): string | undefined;
export declare function runtimeArrows(root: string, options: { withTypes: boolean }): Promise<Arrows>;
export declare function tangledComponents(arrows: Arrows): {
  components: string[][];
  component: Map<string, number>;
};
export declare function tierProblems(
  arrows: { valueArrows: Arrows; allArrows: Arrows },
  tiers?: readonly Tier[],
): string[];
export declare function floorReport(arrows: Arrows): {
  units: number;
  arrows: number;
  floors: number;
  backArrows: string[];
  tangles: string[][];
  byFloor: Record<string, string[]>;
};
