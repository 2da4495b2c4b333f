import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PARTIAL_NOTE, typecheckPlan } from './typecheck.mjs';

const ROOT = join(import.meta.dirname, '..');

describe('typecheckPlan', () => {
  it('checks the whole project where Electron is installed, and says nothing', () => {
    expect(typecheckPlan({ electronTypesInstalled: true })).toEqual({ project: 'tsconfig.json', note: null });
  });

  it('without Electron, checks everything but the code that imports electron, and says what it left out', () => {
    const plan = typecheckPlan({ electronTypesInstalled: false });
    expect(plan).toEqual({ project: 'tsconfig.no-electron.json', note: PARTIAL_NOTE });
    expect(PARTIAL_NOTE).toMatch(/src-main\/electron and src-preload were not type-checked/);
    const config = JSON.parse(readFileSync(join(ROOT, plan.project), 'utf8')) as { extends: string; exclude: string[] };
    expect(config.extends).toBe('./tsconfig.json');
    expect(config.exclude.sort()).toEqual(['src-main/electron', 'src-preload']);
  });
});
