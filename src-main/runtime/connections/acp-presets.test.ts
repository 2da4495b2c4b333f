import { describe, expect, it } from 'vitest';
import { ACP_PRESET_KINDS } from '../../../src-shared/connection-model';
import { presetInstallInfo } from './acp-presets';

describe('ACP agent presets', () => {
  it('each say about how much their install takes on disk, for the Install button', () => {
    for (const kind of ACP_PRESET_KINDS) expect(presetInstallInfo(kind).sizeHint, kind).toMatch(/^≈\d+ MB$/);
  });
});
