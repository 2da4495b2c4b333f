import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadAgentCatalog } from './agent-definitions';
import { parseAgentFile } from './agent-file';

let dataDir: string;
let workspace: string;
beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'cairn-agents-data-'));
  workspace = mkdtempSync(join(tmpdir(), 'cairn-agents-ws-'));
  mkdirSync(join(dataDir, 'agents'), { recursive: true });
  mkdirSync(join(workspace, '.agents', 'agents'), { recursive: true });
});
afterEach(() => {
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(workspace, { recursive: true, force: true });
});

const reviewer =
  '---\nname: Reviewer\ndescription: Reviews a change\ntools: [read_file, grep]\nmodel: small-model\n---\nReview carefully.\n';

describe('agent definitions', () => {
  it('offers the built-in explore and worker agents when nothing is defined', () => {
    const catalog = loadAgentCatalog(dataDir, null);
    expect(catalog.definitions.map((definition) => [definition.id, definition.readOnly])).toEqual([
      ['explore', true],
      ['worker', false],
    ]);
    expect(catalog.definitions.every((definition) => definition.systemPrompt.length > 40)).toBe(true);
    expect(catalog.broken).toEqual([]);
  });

  it('reads the person’s own from the data directory and the workspace; the workspace wins for the same id', () => {
    writeFileSync(join(dataDir, 'agents', 'reviewer.md'), reviewer);
    writeFileSync(
      join(dataDir, 'agents', 'tester.md'),
      '---\nname: Tester\ndescription: Runs tests\n---\nRun the tests.',
    );
    writeFileSync(
      join(workspace, '.agents', 'agents', 'reviewer.md'),
      reviewer.replace('Reviewer', 'Workspace reviewer'),
    );
    const catalog = loadAgentCatalog(dataDir, workspace);
    const reviewerDefinition = catalog.definitions.find((definition) => definition.id === 'reviewer');
    expect(reviewerDefinition).toMatchObject({
      name: 'Workspace reviewer',
      source: 'workspace',
      tools: ['read_file', 'grep'],
      model: 'small-model',
      systemPrompt: 'Review carefully.',
    });
    expect(catalog.definitions.find((definition) => definition.id === 'tester')).toMatchObject({
      source: 'data_dir',
      tools: null,
      model: null,
    });
  });

  it('lists invalid definitions as broken with the reason, and keeps the valid ones', () => {
    const folder = join(workspace, '.agents', 'agents');
    writeFileSync(join(folder, 'no-front.md'), 'Just text');
    writeFileSync(join(folder, 'bad-yaml.md'), '---\nname: [unclosed\n---\nBody');
    writeFileSync(join(folder, 'extra.md'), '---\nname: X\ndescription: Y\ncolour: red\n---\nBody');
    writeFileSync(join(folder, 'explore.md'), reviewer);
    writeFileSync(join(folder, 'Bad Name.md'), reviewer);
    writeFileSync(join(folder, 'ok.md'), reviewer);
    const catalog = loadAgentCatalog(dataDir, workspace);
    const reasons = Object.fromEntries(catalog.broken.map((broken) => [broken.id, broken.reason]));
    expect(reasons['no-front']).toMatch(/front matter/);
    expect(reasons['bad-yaml']).toMatch(/not valid YAML/);
    expect(reasons.extra).toMatch(/colour/);
    expect(reasons.explore).toMatch(/built-in/);
    expect(reasons['Bad Name']).toMatch(/file name/);
    expect(catalog.definitions.map((definition) => definition.id)).toEqual(['explore', 'worker', 'ok']);
  });

  it('refuses a file without instructions or with a wrongly named tool', () => {
    expect(parseAgentFile('---\nname: A\ndescription: B\n---\n')).toEqual({
      error: expect.stringMatching(/no instructions/),
    });
    expect(parseAgentFile('---\nname: A\ndescription: B\ntools: [Read File]\n---\nGo')).toEqual({
      error: expect.stringMatching(/tools\.0/),
    });
  });
});
