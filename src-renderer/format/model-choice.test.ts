import { describe, expect, it } from 'vitest';
import { choicesOf, filterChoices, priceDetail, priceLabel, windowDetail, windowLabel } from './model-choice';

const box = { connectionId: 'box', name: 'Work OpenAI', providerType: 'openai' as const };
const local = { connectionId: 'local', name: 'Ollama', providerType: 'ollama' as const };

describe('model picker entries', () => {
  it('take the window from the override, then the provider’s report, then the table, else a default shown as such', () => {
    const [overridden, known] = choicesOf(
      box,
      [
        { modelId: 'gpt-4o', label: 'gpt-4o' },
        { modelId: 'gpt-4.1', label: 'gpt-4.1' },
      ],
      [
        { connectionId: 'box', modelId: 'gpt-4o', contextWindow: 64_000, outputReserve: 4_000 },
        { connectionId: 'other', modelId: 'gpt-4.1', contextWindow: 2_000, outputReserve: 500 },
      ],
    );
    expect(overridden?.window).toMatchObject({ contextWindow: 64_000, source: 'override' });
    expect(known?.window).toMatchObject({ contextWindow: 1_047_576, source: 'known' });
    const [reported, unknown] = choicesOf(
      local,
      [
        { modelId: 'my-tune:7b', label: 'my-tune:7b', contextLength: 131_072 },
        { modelId: 'odd:1b', label: 'odd:1b' },
      ],
      [],
    );
    expect(reported?.window).toMatchObject({ contextWindow: 131_072, source: 'known' });
    expect(unknown?.window.source).toBe('default');
    expect(reported?.key).toBe('local\nmy-tune:7b');
  });

  it('say where a window comes from; a Codex model’s is its full window, the meter’s the one Codex reports it can use', () => {
    const [codex] = choicesOf(
      { connectionId: 'cx', name: 'Codex', providerType: 'codex' },
      [{ modelId: 'gpt-5.5', label: 'gpt-5.5' }],
      [],
    );
    expect(codex?.window.contextWindow).toBe(400_000);
    expect(windowDetail(codex!)).toBe(
      'Context window: 400k tokens, the model’s full window as its provider documents it. Codex keeps part of it for itself; the context meter shows the window Codex reports it can use.',
    );
    const [plain] = choicesOf(box, [{ modelId: 'gpt-5.5', label: 'gpt-5.5' }], []);
    expect(windowDetail(plain!)).toBe('Context window: 400k tokens, as known for gpt-5.5');
  });

  it('label windows short, and say when Cairn only guessed', () => {
    expect(windowLabel({ contextWindow: 128_000, outputReserve: 4_096, source: 'known' })).toBe('128k');
    expect(windowLabel({ contextWindow: 1_047_576, outputReserve: 4_096, source: 'known' })).toBe('1M');
    expect(windowLabel({ contextWindow: 2_000_000, outputReserve: 4_096, source: 'override' })).toBe('2M');
    expect(windowLabel({ contextWindow: 32_000, outputReserve: 4_000, source: 'default' })).toBe('default 32k');
  });

  it('label prices per million input / output tokens, free for local models, unknown otherwise', () => {
    expect(priceLabel({ inputPerMillion: 2.5, outputPerMillion: 10 })).toBe('$2.50 / $10.00 per M tokens');
    expect(priceLabel({ inputPerMillion: 0.05, outputPerMillion: 0.4 })).toBe('$0.05 / $0.40 per M tokens');
    expect(priceLabel({ inputPerMillion: 0.075, outputPerMillion: 0.6 })).toBe('$0.075 / $0.60 per M tokens');
    expect(priceLabel({ inputPerMillion: 0, outputPerMillion: 0 })).toBe('free');
    expect(priceLabel(null)).toBe('price unknown');
    expect(priceDetail({ inputPerMillion: 3, outputPerMillion: 15 })).toBe(
      '$3.00 per million input tokens, $15.00 per million output tokens',
    );
  });

  it('filter by every typed word across the model’s name, id and connection, ignoring case', () => {
    const choices = [
      ...choicesOf(
        box,
        [
          { modelId: 'gpt-4o', label: 'gpt-4o' },
          { modelId: 'gpt-4o-mini', label: 'gpt-4o-mini' },
        ],
        [],
      ),
      ...choicesOf(local, [{ modelId: 'llama3.2:latest', label: 'Llama 3.2' }], []),
    ];
    expect(filterChoices(choices, '').map((choice) => choice.modelId)).toEqual([
      'gpt-4o',
      'gpt-4o-mini',
      'llama3.2:latest',
    ]);
    expect(filterChoices(choices, 'MINI').map((choice) => choice.modelId)).toEqual(['gpt-4o-mini']);
    expect(filterChoices(choices, 'ollama llama').map((choice) => choice.modelId)).toEqual(['llama3.2:latest']);
    expect(filterChoices(choices, 'work 4o').map((choice) => choice.modelId)).toEqual(['gpt-4o', 'gpt-4o-mini']);
    expect(filterChoices(choices, 'claude')).toEqual([]);
  });
});
