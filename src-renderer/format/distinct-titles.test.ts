import { describe, expect, it } from 'vitest';
import { distinctTitles } from './distinct-titles';

const NOW = Date.UTC(2026, 11, 7, 12, 0);
const session = (sessionId: string, title: string, workspacePath: string | null, updatedAt = NOW) => ({
  sessionId,
  title,
  workspacePath,
  updatedAt,
});

describe('distinctTitles', () => {
  it('leaves a title alone when no other session has it', () => {
    expect([
      ...distinctTitles([session('a', 'Fix login', '/work/app'), session('b', 'Docs', null)], NOW).values(),
    ]).toEqual(['Fix login', 'Docs']);
  });
  it('tells the same title apart by folder, else by when, else by an ordinal', () => {
    const byFolder = distinctTitles(
      [
        session('a', 'New session', '/work/app'),
        session('b', 'New session', '/work/site/'),
        session('c', 'New session', null),
      ],
      NOW,
    );
    expect([...byFolder.values()]).toEqual(['New session — app', 'New session — site', 'New session — no folder']);
    const byWhen = distinctTitles(
      [
        session('a', 'Plan', '/w/app', Date.UTC(2026, 11, 1, 9, 30)),
        session('b', 'Plan', '/w/app', Date.UTC(2026, 11, 3, 9, 30)),
      ],
      NOW,
      'en-GB',
    );
    expect(byWhen.get('a')).not.toBe(byWhen.get('b'));
    expect(byWhen.get('a')).toMatch(/^Plan — .*1 Dec/);
    const twins = distinctTitles([session('a', 'Plan', '/w/app'), session('b', 'Plan', '/w/app')], NOW);
    expect([...twins.values()]).toEqual(['Plan — 1', 'Plan — 2']);
  });
});
