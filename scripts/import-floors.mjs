#!/usr/bin/env node
/**
 * Measures how the runtime's folders stack up: every top-level entry of src-main/runtime/ (a folder,
 * or a loose file) is one unit; an import between two files is an arrow between their units.
 * - floors: the longest chain of arrows between units (folders that import each other count as one floor);
 * - back-arrows: arrows between two units that also reach each other the other way (folder-level cycles).
 * Production sources only (no tests, no testing/). Type-only imports are skipped unless --with-types.
 *
 *   node scripts/import-floors.mjs [--with-types] [--json]
 */
import madge from 'madge';

const RUNTIME = 'src-main/runtime/';
const withTypes = process.argv.includes('--with-types');
const asJson = process.argv.includes('--json');

const result = await madge(RUNTIME, {
  baseDir: '.',
  fileExtensions: ['ts', 'tsx'],
  tsConfig: 'tsconfig.json',
  excludeRegExp: [/\.test\.tsx?$/, /(^|\/)testing\//],
  detectiveOptions: { ts: { skipTypeImports: !withTypes }, tsx: { skipTypeImports: !withTypes } },
});
const files = result.obj();

/** The unit a file belongs to: its folder under runtime/, or the loose file itself. */
function unitOf(file) {
  if (!file.startsWith(RUNTIME)) return undefined;
  const rest = file.slice(RUNTIME.length);
  const slash = rest.indexOf('/');
  return slash === -1 ? rest : `${rest.slice(0, slash)}/`;
}

const arrows = new Map();
for (const [file, deps] of Object.entries(files)) {
  const from = unitOf(file);
  if (!from) continue;
  if (!arrows.has(from)) arrows.set(from, new Set());
  for (const dep of deps) {
    const to = unitOf(dep);
    if (to && to !== from) arrows.get(from).add(to);
  }
}
for (const targets of [...arrows.values()]) for (const to of targets) if (!arrows.has(to)) arrows.set(to, new Set());

// Strongly connected components (Tarjan), so mutually dependent units share a floor.
const index = new Map();
const low = new Map();
const component = new Map();
const stack = [];
let counter = 0;
const components = [];
function connect(unit) {
  index.set(unit, counter);
  low.set(unit, counter);
  counter += 1;
  stack.push(unit);
  for (const to of arrows.get(unit)) {
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
for (const unit of [...arrows.keys()].sort()) if (!index.has(unit)) connect(unit);

const backArrows = [];
for (const [from, targets] of arrows)
  for (const to of targets) if (component.get(from) === component.get(to)) backArrows.push(`${from} → ${to}`);

// Floor of a component: 1 + the highest floor it imports from (Tarjan numbers components dependencies-first).
const floorOf = components.map(() => 1);
components.forEach((members, id) => {
  for (const unit of members)
    for (const to of arrows.get(unit))
      if (component.get(to) !== id) floorOf[id] = Math.max(floorOf[id], floorOf[component.get(to)] + 1);
});
const floors = Math.max(...floorOf);
const tangles = components.filter((members) => members.length > 1);

const report = {
  typeImports: withTypes ? 'counted' : 'skipped',
  units: arrows.size,
  arrows: [...arrows.values()].reduce((sum, targets) => sum + targets.size, 0),
  floors,
  backArrows: backArrows.sort(),
  tangles,
  byFloor: Object.fromEntries(
    [...Array(floors).keys()].map((floor) => [
      floor + 1,
      components.flatMap((members, id) => (floorOf[id] === floor + 1 ? members : [])).sort(),
    ]),
  ),
};

if (asJson) console.log(JSON.stringify(report, null, 2));
else {
  console.log(`runtime units: ${report.units}, arrows: ${report.arrows}, type imports ${report.typeImports}`);
  console.log(`floors: ${floors}`);
  console.log(`back-arrows: ${backArrows.length}${backArrows.length ? `\n  ${report.backArrows.join('\n  ')}` : ''}`);
  for (const members of tangles) console.log(`tangle: ${members.join(' ')}`);
  for (const [floor, members] of Object.entries(report.byFloor)) console.log(`  floor ${floor}: ${members.join(' ')}`);
}
