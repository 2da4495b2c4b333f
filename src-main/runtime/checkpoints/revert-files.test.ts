import { describe, expect, it } from 'vitest';
import { besideName } from './revert-files';

describe('besideName (Open both)', () => {
  it('puts the tag before the extension, numbers later copies, and appends it to a name without one', () => {
    expect(besideName('notes.md', 1)).toBe('notes.cairn-checkpoint.md');
    expect(besideName('src/app.test.ts', 1)).toBe('src/app.test.cairn-checkpoint.ts');
    expect(besideName('src/app.ts', 3)).toBe('src/app.cairn-checkpoint-3.ts');
    expect(besideName('Makefile', 1)).toBe('Makefile.cairn-checkpoint');
    expect(besideName('conf/.env', 2)).toBe('conf/.env.cairn-checkpoint-2');
  });
});
