import { describe, expect, it } from 'vitest';
import { modelSettingsDraft, parseModelSettings } from './model-settings-form';

describe('model settings form', () => {
  it('reads empty fields as the defaults and filled ones as numbers', () => {
    expect(parseModelSettings({ temperature: '', maxOutputTokens: '', reasoningEffort: '' })).toEqual({ settings: {} });
    expect(parseModelSettings({ temperature: ' 0.7 ', maxOutputTokens: '4,096', reasoningEffort: 'high' })).toEqual({
      settings: { temperature: 0.7, maxOutputTokens: 4096, reasoningEffort: 'high' },
    });
  });

  it('says what is wrong with a value out of range', () => {
    expect(parseModelSettings({ temperature: '3', maxOutputTokens: '1.5', reasoningEffort: '' })).toEqual({
      problems: {
        temperature: 'Use a number from 0 to 2, such as 0.7.',
        maxOutputTokens: 'Use a whole number from 1 to 1,000,000.',
      },
    });
    expect(parseModelSettings({ temperature: 'warm', maxOutputTokens: '0', reasoningEffort: '' })).toHaveProperty(
      'problems',
    );
  });

  it('round-trips stored settings through a draft', () => {
    const settings = { temperature: 1, maxOutputTokens: 500, reasoningEffort: 'low' as const };
    expect(parseModelSettings(modelSettingsDraft(settings))).toEqual({ settings });
  });
});
