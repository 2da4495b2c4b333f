import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runtimeArrows, TIERS as RUNTIME_TIERS, tierProblems, type Arrows, type Tier } from './import-floors.mjs';

const SCRIPT = join(import.meta.dirname, 'import-floors.mjs');
const TIERS: readonly Tier[] = [
  { name: 'contract', units: ['contract/'] },
  { name: 'turns', units: ['turns/', 'chat/'] },
  { name: 'features', units: ['goals/'] },
];

/** Arrows from `['from/a.ts → to/b.ts', …]`. */
function arrowsOf(edges: readonly string[], units = ['contract/', 'turns/', 'chat/', 'goals/']): Arrows {
  const arrows: Arrows = Object.fromEntries(units.map((unit) => [unit, {}]));
  for (const edge of edges) {
    const [from, to] = edge.split(' → ').map((file) => `${file.split('/')[0]}/`) as [string, string];
    (arrows[from]![to] ??= []).push(edge);
  }
  return arrows;
}

describe('the runtime tier rule', () => {
  const down = ['goals/goal.ts → turns/turn.ts', 'turns/turn.ts → contract/event.ts', 'chat/chat.ts → turns/turn.ts'];

  it('passes imports that point down the tiers or stay inside one', () => {
    expect(tierProblems({ valueArrows: arrowsOf(down), allArrows: arrowsOf(down) }, TIERS)).toEqual([]);
  });

  it('fails a value import up the tiers, naming the files', () => {
    const edges = [...down, 'contract/event.ts → turns/turn.ts'];
    expect(tierProblems({ valueArrows: arrowsOf(edges), allArrows: arrowsOf(edges) }, TIERS)).toContain(
      'a value import up the tiers, contract/ (contract) → turns/ (turns): contract/event.ts → turns/turn.ts',
    );
  });

  it('fails a type-only import up the tiers too', () => {
    const withType = [...down, 'turns/turn.ts → goals/goal.ts'];
    expect(tierProblems({ valueArrows: arrowsOf(down), allArrows: arrowsOf(withType) }, TIERS)).toEqual([
      'a type import up the tiers, turns/ (turns) → goals/ (features): turns/turn.ts → goals/goal.ts',
    ]);
  });

  it('fails a cycle of value imports between two folders of one tier, but not one of type imports', () => {
    const cycle = [...down, 'turns/queue.ts → chat/chat.ts'];
    expect(tierProblems({ valueArrows: arrowsOf(cycle), allArrows: arrowsOf(cycle) }, TIERS)).toEqual([
      'a cycle of value imports between chat/, turns/: chat/chat.ts → turns/turn.ts; turns/queue.ts → chat/chat.ts',
    ]);
    expect(tierProblems({ valueArrows: arrowsOf(down), allArrows: arrowsOf(cycle) }, TIERS)).toEqual([]);
  });

  it('fails a folder with no tier, and a tier naming a folder that is gone', () => {
    const edges = ['subagents/spawn.ts → turns/turn.ts', 'turns/turn.ts → contract/event.ts'];
    const arrows = arrowsOf(edges, ['contract/', 'turns/', 'chat/', 'subagents/']);
    expect(tierProblems({ valueArrows: arrows, allArrows: arrows }, TIERS)).toEqual([
      'subagents/ has no tier: give it one in TIERS (scripts/import-floors.mjs) and §2',
      'goals/ is in TIERS but not in src-main/runtime/: take it out or rename it',
    ]);
  });
});

describe('import-floors --check', () => {
  let root: string | undefined;
  afterEach(() => {
    if (root !== undefined) rmSync(root, { recursive: true, force: true });
    root = undefined;
  });

  /** A runtime tree with the repository's folders, where `ports/` imports `extra` (a value or a type). */
  function plantTree(extra: string): string {
    const dir = mkdtempSync(join(tmpdir(), 'cairn-tiers-'));
    const write = (path: string, text: string) => {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    };
    write(
      'src-main/runtime/turns/turn-service.ts',
      "import { bus } from '../ports/event-bus';\nexport const turns = bus;\n",
    );
    write('src-main/runtime/ports/event-bus.ts', `${extra}\nexport const bus = 1;\n`);
    write('src-main/runtime/ports/event-bus.test.ts', "import { turns } from '../turns/turn-service';\nvoid turns;\n");
    return dir;
  }

  it('walks a tree: passes it as planted, fails a value import from ports/ up to turns/', async () => {
    root = plantTree('');
    const clean = await runtimeArrows(root, { withTypes: true });
    expect(clean).toEqual({ 'turns/': { 'ports/': ['turns/turn-service.ts → ports/event-bus.ts'] }, 'ports/': {} });

    rmSync(root, { recursive: true, force: true });
    root = plantTree("import { turns } from '../turns/turn-service';\nvoid turns;");
    const valueArrows = await runtimeArrows(root, { withTypes: false });
    const allArrows = await runtimeArrows(root, { withTypes: true });
    const tiers = [
      { name: 'contract', units: ['ports/'] },
      { name: 'turns', units: ['turns/'] },
    ];
    expect(tierProblems({ valueArrows, allArrows }, tiers)).toEqual([
      'a value import up the tiers, ports/ (contract) → turns/ (turns): ports/event-bus.ts → turns/turn-service.ts',
      'a cycle of value imports between ports/, turns/: ports/event-bus.ts → turns/turn-service.ts; turns/turn-service.ts → ports/event-bus.ts',
    ]);
  });

  it('exits 1 on a planted bad import, naming it, in a tree the real TIERS do not fit', () => {
    root = plantTree("import type { turns } from '../turns/turn-service';\nexport type T = typeof turns;");
    const run = spawnSync(process.execPath, [SCRIPT, '--check'], { cwd: root, encoding: 'utf8', timeout: 60_000 });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(
      'a type import up the tiers, ports/ (contract) → turns/ (turns): ports/event-bus.ts → turns/turn-service.ts',
    );
  });
});

describe('the tier table of ARCHITECTURE.md §2', () => {
  it('is the table the check uses', () => {
    const doc = readFileSync(join(import.meta.dirname, '..', 'docs', 'ARCHITECTURE.md'), 'utf8');
    const rows = [...doc.matchAll(/^\| \d\. ([a-z ]+) \| ([^|]+) \|/gm)].map(([, name, folders]) => ({
      name,
      units: [...folders!.matchAll(/`([^`]+)`/g)].map(([, unit]) => unit!).sort(),
    }));
    expect(rows).toEqual(RUNTIME_TIERS.map((tier) => ({ name: tier.name, units: [...tier.units].sort() })));
  });
});
