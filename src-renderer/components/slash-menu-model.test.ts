import { describe, expect, it } from 'vitest';
import { OFFLINE_DEMO_DIRECTIVES as DEMO } from '../../src-shared/offline-demo-directives';
import type { SkillListResult } from '../../src-shared/skill-model';
import {
  draftAfterChoosing,
  hasEntries,
  isKnownCommand,
  skillInvocation,
  slashMenuEntries,
  slashWord,
} from './slash-menu-model';

const skills: SkillListResult = {
  invocable: [
    {
      id: 'release-notes',
      name: 'Release notes',
      description: 'Writes the release notes',
      source: 'workspace',
      requiredTools: [],
    },
  ],
  unavailable: [
    {
      id: 'broken-one',
      source: 'workspace',
      name: null,
      description: null,
      why: { reason: 'broken', message: 'The front matter needs a "name" (text).' },
    },
  ],
};

describe('the / menu', () => {
  it('opens only while the draft is a lone /word', () => {
    expect(slashWord('/Rel')).toBe('rel');
    expect(slashWord('/')).toBe('');
    expect(slashWord('/release-notes since v1.2')).toBeNull();
    expect(slashWord('hello')).toBeNull();
  });

  it('lists matching skills first, then directives, and greys the skills that cannot be used', () => {
    const all = slashMenuEntries('', skills, { state: 'off' }, [], DEMO);
    expect(all.options[0]).toMatchObject({ kind: 'skill', skill: { id: 'release-notes' } });
    expect(all.options.some((option) => option.kind === 'directive' && option.example === '/hold')).toBe(true);
    expect(all.unavailable.map((skill) => skill.id)).toEqual(['broken-one']);
    const rel = slashMenuEntries('rel', skills, { state: 'off' }, [], DEMO);
    expect(rel.options.map((option) => option.key)).toEqual(['skill/release-notes']);
    expect(rel.unavailable).toEqual([]);
    expect(hasEntries(slashMenuEntries('zzz', skills, { state: 'off' }, [], DEMO))).toBe(false);
    expect(hasEntries(slashMenuEntries('zzz', skills, { state: 'loading' }, [], DEMO))).toBe(true);
  });

  it('offers every directive of the Offline demo', () => {
    const directives = slashMenuEntries('', undefined, { state: 'off' }, [], DEMO).options.filter(
      (option) => option.kind === 'directive',
    );
    const words = directives.map((option) => (option.kind === 'directive' ? option.example.split(' ')[0] : ''));
    expect(words).toEqual(
      expect.arrayContaining([
        '/stream',
        '/steps',
        '/ask-secret',
        '/tool',
        '/tools',
        '/skill',
        '/remember',
        '/recall',
        '/spawn',
        '/spawn-many',
      ]),
    );
    expect(directives).toHaveLength(15);
  });

  it('leaves "/skill " for the argument, and a directive as its example', () => {
    const [skill] = slashMenuEntries('rel', skills, { state: 'off' }, [], DEMO).options;
    expect(skill && draftAfterChoosing(skill)).toBe('/release-notes ');
    const hold = slashMenuEntries('hold', skills, { state: 'off' }, [], DEMO).options[0];
    expect(hold && draftAfterChoosing(hold)).toBe('/hold');
  });

  it('reads a skill and its argument from the draft, only for an exact id of a usable skill', () => {
    expect(skillInvocation('/release-notes since v1.2', skills.invocable)).toMatchObject({
      skill: { id: 'release-notes' },
      argument: 'since v1.2',
    });
    expect(skillInvocation('/release-notes', skills.invocable)).toMatchObject({ argument: '' });
    expect(skillInvocation('/release since v1.2', skills.invocable)).toBeNull();
    expect(skillInvocation('/broken-one', skills.invocable)).toBeNull();
    expect(skillInvocation('release-notes', skills.invocable)).toBeNull();
  });

  it('knows a lone /word only by an exact name', () => {
    expect(isKnownCommand('/hold', slashMenuEntries('hold', skills, { state: 'off' }, [], DEMO))).toBe(true);
    expect(isKnownCommand('/hol', slashMenuEntries('hol', skills, { state: 'off' }, [], DEMO))).toBe(false);
    expect(isKnownCommand('/rel', slashMenuEntries('rel', skills, { state: 'off' }, [], DEMO))).toBe(false);
  });
});

describe('an ACP agent’s commands in the / menu', () => {
  const commands = [
    { name: 'review', description: 'Review the changes', hint: 'what to focus on' },
    { name: 'compact', description: 'Compact the conversation', hint: null },
  ];

  it('come first, filtered by the word; one with input waits for it, one without is itself; both are known', () => {
    const all = slashMenuEntries('', skills, { state: 'off' }, commands, DEMO);
    expect(all.options.slice(0, 2).map((option) => option.key)).toEqual(['agent/review', 'agent/compact']);
    const matched = slashMenuEntries('rev', undefined, { state: 'off' }, commands, DEMO);
    expect(matched.options.map((option) => option.key)).toEqual(['agent/review']);
    const [review, compact] = all.options;
    expect(review === undefined ? null : draftAfterChoosing(review)).toBe('/review ');
    expect(compact === undefined ? null : draftAfterChoosing(compact)).toBe('/compact');
    expect(isKnownCommand('/compact', all)).toBe(true);
    expect(isKnownCommand('/compactor', all)).toBe(false);
  });

  it('come without the Offline demo’s directives, which only that agent follows', () => {
    const entries = slashMenuEntries('', undefined, { state: 'off' }, commands, []);
    expect(entries.options.map((option) => option.kind)).toEqual(['agent', 'agent']);
    expect(isKnownCommand('/tool', entries)).toBe(false);
  });
});
