/** One series of the endurance run: its name, unit and a value per sample (null where none was read). */
export interface PlotSeries {
  readonly name: string;
  readonly unit: string;
  readonly values: readonly (number | null)[];
  /** A budget line to draw, in the series' unit. */
  readonly limit?: number;
}

const WIDTH = 560;
const HEIGHT = 150;
const MARGIN = { left: 64, right: 16, top: 26, bottom: 24 };

/**
 * An SVG of each series over time, one small chart under another, the measured windows (the
 * baseline after warm-up and the end) shaded: no library, so the benchmark adds no dependency.
 */
export function plotSeries(
  series: readonly PlotSeries[],
  minutes: readonly number[],
  windows: { readonly baseline: readonly [number, number]; readonly end: readonly [number, number] },
): string {
  const charts = series.map((one, index) => chart(one, minutes, windows, index * (HEIGHT + 10)));
  const total = series.length * (HEIGHT + 10);
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${total}" viewBox="0 0 ${WIDTH} ${total}" font-family="sans-serif" font-size="11">`,
    `<rect width="${WIDTH}" height="${total}" fill="#fff"/>`,
    ...charts,
    '</svg>',
  ].join('\n');
}

function chart(
  series: PlotSeries,
  minutes: readonly number[],
  windows: { readonly baseline: readonly [number, number]; readonly end: readonly [number, number] },
  top: number,
): string {
  const points = series.values.flatMap((value, index) => {
    const minute = minutes[index];
    return value === null || minute === undefined ? [] : [{ minute, value }];
  });
  const lastMinute = Math.max(1, ...minutes);
  const highest = Math.max(series.limit ?? 0, ...points.map((point) => point.value)) * 1.1 || 1;
  const plotWidth = WIDTH - MARGIN.left - MARGIN.right;
  const plotHeight = HEIGHT - MARGIN.top - MARGIN.bottom;
  const x = (minute: number) => MARGIN.left + (minute / lastMinute) * plotWidth;
  const y = (value: number) => top + MARGIN.top + plotHeight - (value / highest) * plotHeight;
  const shade = ([from, to]: readonly [number, number]) =>
    `<rect x="${x(from).toFixed(1)}" y="${top + MARGIN.top}" width="${(x(to) - x(from)).toFixed(1)}" height="${plotHeight}" fill="#e8eef8"/>`;
  const line = points.map((point) => `${x(point.minute).toFixed(1)},${y(point.value).toFixed(1)}`).join(' ');
  const limit =
    series.limit === undefined
      ? ''
      : `<line x1="${MARGIN.left}" x2="${WIDTH - MARGIN.right}" y1="${y(series.limit).toFixed(1)}" y2="${y(series.limit).toFixed(1)}" stroke="#c33" stroke-dasharray="4 3"/>`;
  return [
    shade(windows.baseline),
    shade(windows.end),
    `<text x="${MARGIN.left}" y="${top + 16}" font-weight="bold">${escapeXml(series.name)} (${escapeXml(series.unit)})</text>`,
    `<line x1="${MARGIN.left}" x2="${MARGIN.left}" y1="${top + MARGIN.top}" y2="${top + MARGIN.top + plotHeight}" stroke="#888"/>`,
    `<line x1="${MARGIN.left}" x2="${WIDTH - MARGIN.right}" y1="${top + MARGIN.top + plotHeight}" y2="${top + MARGIN.top + plotHeight}" stroke="#888"/>`,
    `<text x="${MARGIN.left - 6}" y="${(y(highest / 1.1) + 4).toFixed(1)}" text-anchor="end">${formatTick(highest / 1.1)}</text>`,
    `<text x="${MARGIN.left - 6}" y="${top + MARGIN.top + plotHeight + 4}" text-anchor="end">0</text>`,
    `<text x="${WIDTH - MARGIN.right}" y="${top + HEIGHT - 6}" text-anchor="end">${lastMinute.toFixed(0)} min</text>`,
    limit,
    `<polyline points="${line}" fill="none" stroke="#2563eb" stroke-width="1.5"/>`,
  ].join('\n');
}

function formatTick(value: number): string {
  return value >= 100 ? value.toFixed(0) : value.toFixed(1);
}

function escapeXml(text: string): string {
  return text.replace(/[<>&"]/g, (char) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;' })[char] ?? char);
}
