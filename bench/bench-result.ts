export interface BenchResult {
  readonly name: string;
  readonly value: number;
  readonly unit: string;
  /** Against the baseline measured in the same run. */
  readonly ratio?: number;
  readonly target?: string;
}

export function formatResults(results: readonly BenchResult[]): string {
  return results
    .map((result) => {
      const value = `${result.value.toFixed(result.value >= 100 ? 0 : 2)} ${result.unit}`;
      const ratio = result.ratio === undefined ? '' : `  ratio ${result.ratio.toFixed(2)}`;
      const target = result.target === undefined ? '' : `  (target ${result.target})`;
      return `${result.name.padEnd(62)} ${value.padStart(18)}${ratio}${target}`;
    })
    .join('\n');
}
