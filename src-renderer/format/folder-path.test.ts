import { describe, expect, it } from 'vitest';
import { splitFolderPath } from './folder-path';

describe('splitFolderPath', () => {
  it('keeps the folder’s own name apart from the folders above it', () => {
    expect(splitFolderPath('/home/ada/projects/cairn')).toEqual({ parent: '/home/ada/projects/', name: 'cairn' });
    expect(splitFolderPath('/home/ada/projects/cairn/')).toEqual({ parent: '/home/ada/projects/', name: 'cairn' });
    expect(splitFolderPath('C:\\Users\\ada\\cairn')).toEqual({ parent: 'C:\\Users\\ada\\', name: 'cairn' });
    expect(splitFolderPath('/srv')).toEqual({ parent: '/', name: 'srv' });
    expect(splitFolderPath('/')).toEqual({ parent: '', name: '/' });
    expect(splitFolderPath('cairn')).toEqual({ parent: '', name: 'cairn' });
  });
});
