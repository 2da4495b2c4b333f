import { describe, expect, it } from 'vitest';
import { cleanTitle } from './clean-title';

describe('a model’s title reply', () => {
  it('is cleaned to one short line', () => {
    expect(cleanTitle('"Tomato watering schedule."\nMore')).toBe('Tomato watering schedule');
    expect(cleanTitle('Title: **Release plan**')).toBe('Release plan');
    expect(cleanTitle('## `Release` _plan_ for [v2](https://example.com)')).toBe('Release plan for v2');
    expect(cleanTitle('“Garden *ping* setup”')).toBe('Garden ping setup');
    expect(cleanTitle('Here is a title: "Quarterly tax checklist"')).toBe('Quarterly tax checklist');
  });

  it('is capped at eight words and about sixty characters', () => {
    expect(cleanTitle('one two three four five six seven eight nine ten')).toBe(
      'one two three four five six seven eight…',
    );
    expect(
      cleanTitle('Internationalisation considerations for multilingual documentation pipelines')?.length,
    ).toBeLessThanOrEqual(61);
    expect(cleanTitle('word '.repeat(30))?.split(' ')).toHaveLength(8);
  });

  it('is refused when it echoes the prompt or says nothing, so the first message’s title stays', () => {
    expect(cleanTitle('Here is a **markdown** answer to: Person: Explain how tides work')).toBeNull();
    expect(cleanTitle('Person: Explain how tides work\n\nAgent: Tides are…')).toBeNull();
    expect(cleanTitle('Sure! I can help with that.')).toBeNull();
    expect(cleanTitle('   ')).toBeNull();
    expect(cleanTitle('**""**')).toBeNull();
    expect(cleanTitle('/tool read_file')).toBeNull();
  });
});
