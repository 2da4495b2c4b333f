import { describe, expect, it } from 'vitest';
import { applyCatalog, EMPTY_CATALOG } from '../state/reducers/catalog-reducer';
import { connection } from '../state/reducers/record-fixtures';
import { agentNameOf, pickerChoices, pickerGroups } from './ModelPicker';

const demo = connection({
  connectionId: 'offline-demo',
  name: 'Offline demo',
  providerType: 'scripted',
  builtIn: true,
  enabledModelIds: ['scripted'],
  models: [{ modelId: 'scripted', label: 'Scripted agent' }],
});
const box = connection({
  connectionId: 'box',
  name: 'Box',
  enabledModelIds: ['a'],
  models: [
    { modelId: 'a', label: 'Model A' },
    { modelId: 'b', label: 'Model B' },
  ],
});
const off = connection({ connectionId: 'off', name: 'Off', enabled: false, enabledModelIds: ['x'] });
const catalog = applyCatalog(EMPTY_CATALOG, {
  connections: [demo, box, off],
  defaultTarget: { connectionId: 'offline-demo', modelId: 'scripted' },
  catalogRevision: 1,
});

describe('the model picker', () => {
  it('offers the enabled models of usable connections, grouped by connection', () => {
    expect(pickerGroups(catalog, 'offline-demo', null)).toEqual([
      {
        connectionId: 'offline-demo',
        name: 'Offline demo',
        models: [{ modelId: 'scripted', label: 'Scripted agent' }],
      },
      { connectionId: 'box', name: 'Box', models: [{ modelId: 'a', label: 'Model A' }] },
    ]);
  });

  it('keeps the session’s own choice listed, even when it is no longer enabled', () => {
    const groups = pickerGroups(catalog, 'box', 'b');
    expect(groups.find((group) => group.connectionId === 'box')?.models.map((model) => model.modelId)).toEqual([
      'a',
      'b',
    ]);
    expect(pickerGroups(catalog, 'off', 'x').at(-1)).toEqual({
      connectionId: 'off',
      name: 'Off',
      models: [{ modelId: 'x', label: 'x' }],
    });
    expect(pickerGroups(catalog, 'gone', 'm')).toHaveLength(2);
  });

  it('lists each model with its connection, window and price, the person’s window winning', () => {
    const priced = connection({
      connectionId: 'paid',
      name: 'Paid',
      providerType: 'openai',
      enabledModelIds: ['gpt-4o', 'mystery'],
      models: [
        { modelId: 'gpt-4o', label: 'GPT-4o', price: { inputPerMillion: 2.5, outputPerMillion: 10 } },
        { modelId: 'mystery', label: 'mystery', price: null },
      ],
    });
    const withPaid = applyCatalog(EMPTY_CATALOG, {
      connections: [demo, priced],
      defaultTarget: { connectionId: 'paid', modelId: 'gpt-4o' },
      catalogRevision: 2,
    });
    const choices = pickerChoices(withPaid, 'paid', null, [
      { connectionId: 'paid', modelId: 'mystery', contextWindow: 50_000, outputReserve: 2_000 },
    ]);
    expect(
      choices.map((choice) => [
        choice.connectionName,
        choice.label,
        choice.window.contextWindow,
        choice.window.source,
        choice.price,
      ]),
    ).toEqual([
      ['Offline demo', 'Scripted agent', 32_000, 'default', null],
      ['Paid', 'GPT-4o', 128_000, 'known', { inputPerMillion: 2.5, outputPerMillion: 10 }],
      ['Paid', 'mystery', 50_000, 'override', null],
    ]);
  });

  it('names an ACP session’s agent as it named itself once started, else what the connection runs; other connections by their model', () => {
    const claude = connection({
      connectionId: 'claude',
      name: 'Claude',
      providerType: 'acp',
      acpAgent: { command: '/usr/bin/node', args: [], env: {}, preset: { kind: 'claude', model: null } },
    });
    expect(agentNameOf(claude, null)).toBe('Claude agent');
    expect(
      agentNameOf(claude, { name: '@agentclientprotocol/claude-agent-acp', title: 'Claude Agent', version: '0.101.0' }),
    ).toBe('Claude Agent 0.101.0');
    expect(agentNameOf(claude, { name: 'opencode', title: null, version: null })).toBe('opencode');
    expect(agentNameOf(box, { name: 'opencode', title: null, version: null })).toBeNull();
  });
});
