import { describe, expect, it } from 'vitest';
import { pathWords, planE2e, planUnit, specAreas } from './test-changed.mjs';

const SPECS = [
  'e2e/chat.spec.ts',
  'e2e/chat-essentials.spec.ts',
  'e2e/workhub.spec.ts',
  'e2e/codex.spec.ts',
  'e2e/host-down.spec.ts',
  'e2e/mcp-prompts-elicitation.spec.ts',
  'e2e/long-session.spec.ts',
];

describe('test:changed', () => {
  it('splits a path into its folders and words, camelCase included, plurals made singular', () => {
    expect([...pathWords('src-renderer/components/workhub/WorkHubView.tsx')]).toEqual([
      'src',
      'renderer',
      'component',
      'workhub',
      'work',
      'hub',
      'view',
      'tsx',
    ]);
    expect(specAreas('e2e/mcp-prompts-elicitation.spec.ts')).toEqual(['mcp', 'elicitation']);
    expect(specAreas('e2e/host-down.spec.ts')).toEqual([]);
  });

  it('picks the specs named after a changed source file’s area, with the reason', () => {
    const plan = planE2e(
      ['src-main/runtime/workhub/workhub-routing.ts', 'src-main/runtime/agent-backends/codex/codex-backend.ts'],
      SPECS,
    );
    expect([...plan.keys()]).toEqual(['e2e/workhub.spec.ts', 'e2e/codex.spec.ts']);
    expect(plan.get('e2e/workhub.spec.ts')).toBe('src-main/runtime/workhub/workhub-routing.ts is in its area');
  });

  it('runs a changed spec, the specs that import a changed helper, and the basic journey for a source file that names none', () => {
    const plan = planE2e(
      ['e2e/long-session.spec.ts', 'e2e/seed.ts', 'src-renderer/components/Composer.tsx', 'docs/setup.md'],
      SPECS,
      {
        'e2e/seed.ts': ['e2e/long-session.spec.ts', 'e2e/codex.spec.ts'],
      },
    );
    expect(Object.fromEntries(plan)).toEqual({
      'e2e/long-session.spec.ts': 'the spec changed',
      'e2e/codex.spec.ts': 'it imports e2e/seed.ts',
      'e2e/chat.spec.ts': 'src-renderer/components/Composer.tsx names no spec: the basic journey',
    });
  });

  it('runs every spec when the harness changes, and none for a change outside the app', () => {
    expect([...planE2e(['e2e/fixtures.ts'], SPECS).keys()]).toEqual(SPECS);
    expect(planE2e(['docs/setup.md', 'src-main/runtime/turns/turn-service.test.ts'], SPECS).size).toBe(0);
  });

  it('runs the unit tests related to changed code, all of them when their configuration changes', () => {
    expect(planUnit(['src-main/runtime/turns/turn-service.ts', 'docs/setup.md', 'e2e/chat.spec.ts'])).toEqual({
      all: false,
      why: '1 changed file(s)',
      files: ['src-main/runtime/turns/turn-service.ts'],
    });
    expect(planUnit(['vitest.config.ts', 'src-main/serve.ts']).all).toBe(true);
    expect(planUnit(['README.md']).files).toEqual([]);
  });
});
