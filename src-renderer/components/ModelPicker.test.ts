import { describe, expect, it } from 'vitest';
import { applyCatalog, EMPTY_CATALOG } from '../state/reducers/catalog-reducer';
import { connection } from '../state/reducers/record-fixtures';
import { decodeTarget, encodeTarget, pickerGroups } from './ModelPicker';

const demo = connection({ connectionId: 'offline-demo', name: 'Offline demo', providerType: 'scripted', builtIn: true, enabledModelIds: ['scripted'], models: [{ modelId: 'scripted', label: 'Scripted agent' }] });
const box = connection({ connectionId: 'box', name: 'Box', enabledModelIds: ['a'], models: [{ modelId: 'a', label: 'Model A' }, { modelId: 'b', label: 'Model B' }] });
const off = connection({ connectionId: 'off', name: 'Off', enabled: false, enabledModelIds: ['x'] });
const catalog = applyCatalog(EMPTY_CATALOG, { connections: [demo, box, off], defaultTarget: { connectionId: 'offline-demo', modelId: 'scripted' }, catalogRevision: 1 });

describe('the model picker', () => {
  it('offers the enabled models of usable connections, grouped by connection', () => {
    expect(pickerGroups(catalog, 'offline-demo', null)).toEqual([
      { connectionId: 'offline-demo', name: 'Offline demo', models: [{ modelId: 'scripted', label: 'Scripted agent' }] },
      { connectionId: 'box', name: 'Box', models: [{ modelId: 'a', label: 'Model A' }] },
    ]);
  });

  it('keeps the session’s own choice listed, even when it is no longer enabled', () => {
    const groups = pickerGroups(catalog, 'box', 'b');
    expect(groups.find((group) => group.connectionId === 'box')?.models.map((model) => model.modelId)).toEqual(['a', 'b']);
    expect(pickerGroups(catalog, 'off', 'x').at(-1)).toEqual({ connectionId: 'off', name: 'Off', models: [{ modelId: 'x', label: 'x' }] });
    expect(pickerGroups(catalog, 'gone', 'm')).toHaveLength(2);
  });

  it('round-trips a connection and model through the option value', () => {
    expect(decodeTarget(encodeTarget('c:1', 'org/model:latest'))).toEqual({ connectionId: 'c:1', modelId: 'org/model:latest' });
    expect(decodeTarget('')).toBeNull();
  });
});
