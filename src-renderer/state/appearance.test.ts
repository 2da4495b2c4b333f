import { describe, expect, it } from 'vitest';
import { DEFAULT_APPEARANCE, parseAppearance, serializeAppearance } from './appearance';

describe('the remembered appearance', () => {
  it('reads back what was kept, and falls back to the defaults for anything unknown', () => {
    expect(parseAppearance(serializeAppearance({ theme: 'dark', textSize: 'large' }))).toEqual({
      theme: 'dark',
      textSize: 'large',
    });
    expect(parseAppearance(null)).toEqual(DEFAULT_APPEARANCE);
    expect(parseAppearance('not json')).toEqual(DEFAULT_APPEARANCE);
    expect(parseAppearance('{"theme":"sepia","textSize":"small"}')).toEqual({ theme: 'system', textSize: 'small' });
  });
});
