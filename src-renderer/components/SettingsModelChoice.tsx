import { useEffect } from 'react';
import type { ConnectionRecord, ModelInfo } from '../../src-shared/connection-model';
import { choiceKey, choicesOf } from '../format/model-choice';
import { modelLabel } from '../state/reducers/catalog-reducer';
import { useAppStore, useStoreApi } from '../state/store-context';
import { ModelCombobox } from './ModelCombobox';

interface SettingsModelChoiceProps {
  readonly label: string;
  readonly connection: ConnectionRecord;
  readonly models: readonly ModelInfo[];
  /** The chosen model id ('' for none). */
  readonly value: string;
  readonly onChoose: (modelId: string) => void;
}

/** One connection's models in Settings, as the same searchable list the session header uses, in an input's clothes. */
export function SettingsModelChoice({ label, connection, models, value, onChoose }: SettingsModelChoiceProps) {
  const store = useStoreApi();
  const windows = useAppStore((state) => state.modelWindows);
  useEffect(() => {
    if (windows === null) void store.getState().loadModelWindows();
  }, [store, windows]);
  const summary = value === '' ? 'none chosen' : modelLabel(connection, value);
  return (
    <ModelCombobox
      className="model-combobox-field"
      label={label}
      choices={choicesOf(connection, models, windows?.overrides ?? [])}
      value={value === '' ? null : choiceKey(connection.connectionId, value)}
      summary={summary}
      onChoose={(choice) => onChoose(choice.modelId)}
      face={<span className="input select model-combobox-face">{summary}</span>}
    />
  );
}
