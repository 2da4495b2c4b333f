#!/usr/bin/env node
/**
 * The runtime's tiers (docs/ARCHITECTURE.md §2), checked, and how its folders stack up.
 *
 * Every top-level entry of src-main/runtime/ (a folder, or a loose file) is one unit; an import between
 * two files is an arrow between their units. Production sources only (no tests, no testing/).
 * - `--check` fails (exit 1) when an import, value or type-only, points from a lower tier to a higher
 *   one, when the value imports between folders make a cycle (even inside one tier), or when a folder
 *   has no tier (or the table names one that is gone).
 * - Without it, the floors: the longest chain of arrows between units (folders that import each other
 *   count as one floor) and the folder-level back-arrows. Type-only imports are skipped unless
 *   --with-types.
 *
 *   node scripts/import-floors.mjs [--check] [--with-types] [--json]
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import madge from 'madge';

export const RUNTIME = 'src-main/runtime/';

/**
 * The tiers, lowest first. A unit may import its own tier and the tiers below, never one above.
 * Keep in step with the tier table of docs/ARCHITECTURE.md §2.
 */
export const TIERS = [
  { name: 'contract', units: ['contract/', 'lifecycle/', 'ports/'] },
  {
    name: 'services',
    units: [
      'attachments/',
      'checkpoints/',
      'connections/',
      'context/',
      'hooks/',
      'memory/',
      'permissions/',
      'sandbox/',
      'sessions/',
      'shell/',
      'storage-faults/',
      'tools/',
      'workspace/',
      'worktrees/',
    ],
  },
  { name: 'turns', units: ['branches/', 'compaction/', 'conversations/', 'interactions/', 'mcp/', 'turns/'] },
  { name: 'agent backends', units: ['agent-backends/'] },
  { name: 'features', units: ['subagents/', 'automations/', 'goals/', 'skills/', 'workhub/'] },
  { name: 'composition', units: ['composition/', 'runtime.ts'] },
];

/** The unit a file belongs to: its folder under runtime/, or the loose file itself. */
export function unitOf(file) {
  if (!file.startsWith(RUNTIME)) return undefined;
  const rest = file.slice(RUNTIME.length);
  const slash = rest.indexOf('/');
  return slash === -1 ? rest : `${rest.slice(0, slash)}/`;
}

/**
 * The arrows between the runtime's units under `root`: `{ from: { to: ['from-file → to-file', …] } }`,
 * paths relative to src-main/runtime/. Every unit is a key, also one that imports nothing.
 */
export async function runtimeArrows(root, { withTypes }) {
  const tsConfig = join(root, 'tsconfig.json');
  const result = await madge(join(root, RUNTIME), {
    baseDir: root,
    fileExtensions: ['ts', 'tsx'],
    ...(existsSync(tsConfig) ? { tsConfig } : {}),
    excludeRegExp: [/\.test\.tsx?$/, /(^|\/)testing\//],
    detectiveOptions: { ts: { skipTypeImports: !withTypes }, tsx: { skipTypeImports: !withTypes } },
  });
  const arrows = {};
  for (const [file, deps] of Object.entries(result.obj())) {
    const from = unitOf(file);
    if (!from) continue;
    arrows[from] ??= {};
    for (const dep of deps) {
      const to = unitOf(dep);
      if (!to || to === from) continue;
      arrows[to] ??= {};
      (arrows[from][to] ??= []).push(`${file.slice(RUNTIME.length)} → ${dep.slice(RUNTIME.length)}`);
    }
  }
  return arrows;
}

/** Groups of units that reach each other (Tarjan's strongly connected components), dependencies first. */
export function tangledComponents(arrows) {
  const index = new Map();
  const low = new Map();
  const component = new Map();
  const stack = [];
  const components = [];
  let counter = 0;
  function connect(unit) {
    index.set(unit, counter);
    low.set(unit, counter);
    counter += 1;
    stack.push(unit);
    for (const to of Object.keys(arrows[unit] ?? {})) {
      if (!index.has(to)) {
        connect(to);
        low.set(unit, Math.min(low.get(unit), low.get(to)));
      } else if (!component.has(to)) low.set(unit, Math.min(low.get(unit), index.get(to)));
    }
    if (low.get(unit) !== index.get(unit)) return;
    const members = [];
    let member;
    do {
      member = stack.pop();
      component.set(member, components.length);
      members.push(member);
    } while (member !== unit);
    components.push(members.sort());
  }
  for (const unit of Object.keys(arrows).sort()) if (!index.has(unit)) connect(unit);
  return { components, component };
}

/**
 * What breaks the tiers: `valueArrows` counts value imports only, `allArrows` type-only imports too.
 * An empty list means the runtime keeps its tiers.
 */
export function tierProblems({ valueArrows, allArrows }, tiers = TIERS) {
  const tierOf = new Map(tiers.flatMap((tier, level) => tier.units.map((unit) => [unit, { ...tier, level }])));
  const problems = [];
  const units = new Set([...Object.keys(valueArrows), ...Object.keys(allArrows)]);
  for (const unit of [...units].sort())
    if (!tierOf.has(unit))
      problems.push(`${unit} has no tier: give it one in TIERS (scripts/import-floors.mjs) and §2`);
  for (const unit of tierOf.keys())
    if (!units.has(unit)) problems.push(`${unit} is in TIERS but not in ${RUNTIME}: take it out or rename it`);
  for (const [from, targets] of Object.entries(allArrows)) {
    for (const [to, edges] of Object.entries(targets)) {
      const low = tierOf.get(from);
      const high = tierOf.get(to);
      if (low === undefined || high === undefined || high.level <= low.level) continue;
      const kind = valueArrows[from]?.[to] === undefined ? 'a type import' : 'a value import';
      for (const edge of valueArrows[from]?.[to] ?? edges)
        problems.push(`${kind} up the tiers, ${from} (${low.name}) → ${to} (${high.name}): ${edge}`);
    }
  }
  for (const members of tangledComponents(valueArrows).components.filter((group) => group.length > 1)) {
    const inside = new Set(members);
    const edges = members.flatMap((from) =>
      Object.entries(valueArrows[from] ?? {}).flatMap(([to, found]) => (inside.has(to) ? found : [])),
    );
    problems.push(`a cycle of value imports between ${members.join(', ')}: ${edges.join('; ')}`);
  }
  return problems;
}

/** How the units stack: floors, back-arrows and tangles (for reading, not a check). */
export function floorReport(arrows) {
  const { components, component } = tangledComponents(arrows);
  const backArrows = [];
  for (const [from, targets] of Object.entries(arrows))
    for (const to of Object.keys(targets))
      if (component.get(from) === component.get(to)) backArrows.push(`${from} → ${to}`);
  // Floor of a component: 1 + the highest floor it imports from (Tarjan numbers components dependencies-first).
  const floorOf = components.map(() => 1);
  components.forEach((members, id) => {
    for (const unit of members)
      for (const to of Object.keys(arrows[unit]))
        if (component.get(to) !== id) floorOf[id] = Math.max(floorOf[id], floorOf[component.get(to)] + 1);
  });
  const floors = Math.max(...floorOf);
  return {
    units: Object.keys(arrows).length,
    arrows: Object.values(arrows).reduce((sum, targets) => sum + Object.keys(targets).length, 0),
    floors,
    backArrows: backArrows.sort(),
    tangles: components.filter((members) => members.length > 1),
    byFloor: Object.fromEntries(
      [...Array(floors).keys()].map((floor) => [
        floor + 1,
        components.flatMap((members, id) => (floorOf[id] === floor + 1 ? members : [])).sort(),
      ]),
    ),
  };
}

async function main(args) {
  const root = process.cwd();
  if (args.includes('--check')) {
    const [valueArrows, allArrows] = await Promise.all([
      runtimeArrows(root, { withTypes: false }),
      runtimeArrows(root, { withTypes: true }),
    ]);
    const problems = tierProblems({ valueArrows, allArrows });
    if (problems.length === 0) {
      console.log(`runtime tiers kept: ${TIERS.map((tier) => tier.name).join(' → ')}`);
      return;
    }
    console.error(`The runtime's tiers (docs/ARCHITECTURE.md §2) are broken:\n  ${problems.join('\n  ')}`);
    process.exitCode = 1;
    return;
  }
  const withTypes = args.includes('--with-types');
  const report = {
    typeImports: withTypes ? 'counted' : 'skipped',
    ...floorReport(await runtimeArrows(root, { withTypes })),
  };
  if (args.includes('--json')) {
    console.log(JSON.stringify(report, null, 2));
    return;
  }
  console.log(`runtime units: ${report.units}, arrows: ${report.arrows}, type imports ${report.typeImports}`);
  console.log(`floors: ${report.floors}`);
  const back = report.backArrows;
  console.log(`back-arrows: ${back.length}${back.length ? `\n  ${back.join('\n  ')}` : ''}`);
  for (const members of report.tangles) console.log(`tangle: ${members.join(' ')}`);
  for (const [floor, members] of Object.entries(report.byFloor)) console.log(`  floor ${floor}: ${members.join(' ')}`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main(process.argv.slice(2));
