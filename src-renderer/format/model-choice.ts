import type { ModelWindowOverride } from '../../src-shared/context-model';
import type { ConnectionRecord, ModelInfo, ModelPrice } from '../../src-shared/connection-model';
import { modelWindowOf, type ModelWindow } from '../../src-shared/model-windows';

/** One entry of the model picker: a connection's model with what a person weighs when choosing it. */
export interface ModelChoice {
  /** Unique across connections (`connectionId` + newline + `modelId`). */
  readonly key: string;
  readonly connectionId: string;
  readonly connectionName: string;
  readonly modelId: string;
  readonly label: string;
  readonly window: ModelWindow;
  /** Whether Codex runs the model: it keeps part of the window for itself and reports the rest (the meter's figure). */
  readonly runsOnCodex: boolean;
  readonly price: ModelPrice | null;
}

const SEPARATOR = '\n';

export function choiceKey(connectionId: string, modelId: string): string {
  return `${connectionId}${SEPARATOR}${modelId}`;
}

/** A connection's models as picker entries; the window follows the person's override, then what the provider reported, then the table. */
export function choicesOf(
  connection: Pick<ConnectionRecord, 'connectionId' | 'name' | 'providerType'>,
  models: readonly ModelInfo[],
  overrides: readonly ModelWindowOverride[],
): ModelChoice[] {
  return models.map((model) => {
    const override =
      overrides.find((entry) => entry.connectionId === connection.connectionId && entry.modelId === model.modelId) ??
      null;
    return {
      key: choiceKey(connection.connectionId, model.modelId),
      connectionId: connection.connectionId,
      connectionName: connection.name,
      modelId: model.modelId,
      label: model.label,
      window: modelWindowOf(connection.providerType, model.modelId, {
        override,
        reportedContextLength: model.contextLength ?? null,
      }),
      runsOnCodex: connection.providerType === 'codex',
      price: model.price ?? null,
    };
  });
}

/** 128_000 → "128k", 1_047_576 → "1M", 16_385 → "16k"; "default 32k" when Cairn only guessed it. */
export function windowLabel(window: ModelWindow): string {
  const tokens = window.contextWindow;
  const short =
    tokens >= 1_000_000
      ? `${Number((tokens / 1_000_000).toFixed(1))}M`
      : tokens >= 1_000
        ? `${Math.round(tokens / 1_000)}k`
        : String(tokens);
  return window.source === 'default' ? `default ${short}` : short;
}

/**
 * Where a choice's window figure comes from, for its hover. A Codex model's figure is the model's full
 * window; the context meter shows the smaller one Codex reports it can use, so both say which is which.
 */
export function windowDetail(choice: Pick<ModelChoice, 'window' | 'modelId' | 'runsOnCodex'>): string {
  const { window, modelId } = choice;
  if (window.source === 'default')
    return 'Cairn does not know this model’s window; change it in Settings → Connections';
  if (window.source === 'override') return `Context window: ${windowLabel(window)} tokens, set in Settings`;
  if (choice.runsOnCodex) {
    return `Context window: ${windowLabel(window)} tokens, the model’s full window as its provider documents it. Codex keeps part of it for itself; the context meter shows the window Codex reports it can use.`;
  }
  return `Context window: ${windowLabel(window)} tokens, as known for ${modelId}`;
}

function dollars(value: number): string {
  return `$${value < 0.1 && value > 0 ? value.toFixed(3).replace(/0$/, '') : value.toFixed(2)}`;
}

/** "$2.50 / $10.00 per M tokens" (input / output), "free" for a local model, "price unknown" otherwise. */
export function priceLabel(price: ModelPrice | null): string {
  if (price === null) return 'price unknown';
  if (price.inputPerMillion === 0 && price.outputPerMillion === 0) return 'free';
  return `${dollars(price.inputPerMillion)} / ${dollars(price.outputPerMillion)} per M tokens`;
}

/** The hover and screen-reader wording of a price: which figure is input and which output. */
export function priceDetail(price: ModelPrice | null): string {
  if (price === null) return 'Cairn does not know this model’s price';
  if (price.inputPerMillion === 0 && price.outputPerMillion === 0) return 'No charge: it runs on your machine';
  return `${dollars(price.inputPerMillion)} per million input tokens, ${dollars(price.outputPerMillion)} per million output tokens`;
}

/** The entries matching what was typed: every word must appear in the model's name, id or connection (case ignored). */
export function filterChoices(choices: readonly ModelChoice[], query: string): ModelChoice[] {
  const words = query
    .toLowerCase()
    .split(/\s+/)
    .filter((word) => word !== '');
  if (words.length === 0) return [...choices];
  return choices.filter((choice) => {
    const haystack = `${choice.label} ${choice.modelId} ${choice.connectionName}`.toLowerCase();
    return words.every((word) => haystack.includes(word));
  });
}
