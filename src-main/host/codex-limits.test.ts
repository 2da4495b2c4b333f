import { describe, expect, it } from 'vitest';
import { codexLimitsFrom } from './codex-limits';

describe('codexLimitsFrom', () => {
  it('leaves the defaults when nothing is set', () => {
    expect(codexLimitsFrom({}, {})).toEqual({});
    expect(codexLimitsFrom({ idleMinutes: ' ' }, { CAIRN_CODEX_MAX_WARM: '' })).toEqual({});
  });

  it('reads flags first, then the environment', () => {
    expect(
      codexLimitsFrom({ idleMinutes: '2.5' }, { CAIRN_CODEX_IDLE_MINUTES: '30', CAIRN_CODEX_MAX_WARM: '2' }),
    ).toEqual({ idleMs: 150_000, maxWarm: 2 });
    expect(codexLimitsFrom({ maxWarm: '6' }, { CAIRN_CODEX_MAX_WARM: '2' })).toEqual({ maxWarm: 6 });
  });

  it('refuses what is not a limit, saying which setting and what was given', () => {
    expect(() => codexLimitsFrom({ idleMinutes: '0' }, {})).toThrow(/codex-idle-minutes.*above 0, not "0"/);
    expect(() => codexLimitsFrom({}, { CAIRN_CODEX_IDLE_MINUTES: 'ten' })).toThrow(/not "ten"/);
    expect(() => codexLimitsFrom({ maxWarm: '1.5' }, {})).toThrow(
      /codex-max-warm.*whole number of at least 1, not "1.5"/,
    );
    expect(() => codexLimitsFrom({}, { CAIRN_CODEX_MAX_WARM: '0' })).toThrow(/at least 1/);
  });
});
