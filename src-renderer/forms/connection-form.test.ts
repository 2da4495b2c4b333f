import { describe, expect, it } from 'vitest';
import { connection } from '../state/reducers/record-fixtures';
import {
  createInput,
  draftOf,
  emptyDraft,
  updateInput,
  validateConnectionDraft,
  verdictLabel,
  withAcpAgent,
  withProvider,
} from './connection-form';
import { acpAgentLabel } from './connection-labels';

describe('the connection form', () => {
  it('asks for a name, and a base URL for an OpenAI-compatible server, in http(s) only', () => {
    expect(validateConnectionDraft({ ...emptyDraft('openai'), name: '  ', apiKey: 'sk-1' })).toEqual({
      name: 'Give the connection a name.',
    });
    expect(validateConnectionDraft(emptyDraft('openai_compatible')).baseUrl).toMatch(/server’s address/);
    expect(validateConnectionDraft({ ...emptyDraft('ollama'), baseUrl: 'ftp://box' }).baseUrl).toBe(
      'Use an http:// or https:// address.',
    );
    expect(
      validateConnectionDraft({ ...emptyDraft('openai_compatible'), baseUrl: 'http://127.0.0.1:1234/v1' }),
    ).toEqual({});
  });

  it('asks for a key when adding an OpenAI or Anthropic connection', () => {
    expect(validateConnectionDraft(emptyDraft('anthropic'), { requireKey: true }).apiKey).toBe(
      'Anthropic needs an API key.',
    );
    expect(validateConnectionDraft(emptyDraft('anthropic'))).toEqual({});
    expect(validateConnectionDraft(emptyDraft('ollama'), { requireKey: true })).toEqual({});
  });

  it('keeps a name that follows the provider in step with it', () => {
    expect(withProvider(emptyDraft('openai'), 'ollama').name).toBe('Ollama');
    expect(withProvider({ ...emptyDraft('openai'), name: 'Work' }, 'ollama').name).toBe('Work');
  });

  it('an ACP agent Cairn knows: its key, base URL and model go with the preset, no command line; OpenCode needs a server and a model', () => {
    const claude = withProvider(emptyDraft('openai'), 'acp');
    expect(claude).toMatchObject({ name: 'Claude', acpAgentKind: 'claude' });
    expect(validateConnectionDraft(claude)).toEqual({});
    expect(createInput({ ...claude, apiKey: 'sk-ant', baseUrl: 'http://127.0.0.1:9/v1' })).toEqual({
      name: 'Claude',
      providerType: 'acp',
      apiKey: 'sk-ant',
      baseUrl: 'http://127.0.0.1:9/v1',
      acpAgent: { preset: { kind: 'claude', model: null }, env: {} },
    });
    const openCode = withAcpAgent(claude, 'opencode');
    expect(openCode.name).toBe('OpenCode');
    expect(validateConnectionDraft(openCode)).toEqual({
      baseUrl: 'OpenCode needs the server’s address, for example http://127.0.0.1:1234/v1.',
      acpModel: 'Give the model to use (its id on the server).',
    });
    expect(createInput({ ...openCode, baseUrl: 'http://box/v1', acpModel: ' qwen3 ' }).acpAgent).toEqual({
      preset: { kind: 'opencode', model: 'qwen3' },
      env: {},
    });
    const custom = withAcpAgent(openCode, 'custom');
    expect(validateConnectionDraft(custom).acpCommand).toBeDefined();
    expect(withAcpAgent({ ...claude, name: 'Mine' }, 'gemini').name).toBe('Mine');
  });

  it('names what an ACP connection runs (the session header shows it instead of a model)', () => {
    const acp = connection({
      connectionId: 'c-acp',
      providerType: 'acp',
      acpAgent: { command: '/opt/agents/my-agent', args: [], env: {}, preset: { kind: 'opencode', model: 'qwen3' } },
    });
    expect(acpAgentLabel(acp)).toBe('OpenCode agent (qwen3)');
    expect(acpAgentLabel({ ...acp, acpAgent: { command: '/opt/agents/my-agent', args: ['--acp'], env: {} } })).toBe(
      'my-agent',
    );
    expect(draftOf(acp)).toMatchObject({ acpAgentKind: 'opencode', acpModel: 'qwen3' });
  });

  it("an ACP agent's writable folders for Auto: absolute paths one a line, sent with the agent, and a change of them alone is sent", () => {
    const draft = { ...withProvider(emptyDraft('openai'), 'acp'), acpWritable: ' /srv/agent-state \n\nrelative/x' };
    expect(validateConnectionDraft(draft).acpWritable).toBe('"relative/x" is not an absolute path: start it with /.');
    expect(createInput({ ...draft, acpWritable: '/srv/agent-state\n' }).acpAgent).toEqual({
      preset: { kind: 'claude', model: null },
      env: {},
      writableFolders: ['/srv/agent-state'],
    });
    const record = connection({
      connectionId: 'c-acp',
      providerType: 'acp',
      revision: 2,
      acpAgent: { command: '/opt/agent', args: [], env: {}, writableFolders: ['/srv/a'] },
    });
    expect(draftOf(record).acpWritable).toBe('/srv/a');
    expect(updateInput(record, draftOf(record))).toBeNull();
    expect(updateInput(record, { ...draftOf(record), acpWritable: '' })?.acpAgent).toEqual({
      command: '/opt/agent',
      args: [],
      env: {},
    });
  });

  it('sends only what was filled in when creating', () => {
    expect(createInput({ ...emptyDraft('openai_compatible'), name: ' Box ', baseUrl: ' http://h/v1 ' })).toEqual({
      name: 'Box',
      providerType: 'openai_compatible',
      baseUrl: 'http://h/v1',
    });
  });

  it('sends only the changes when editing, with the revision read, and null for a cleared base URL', () => {
    const record = connection({ connectionId: 'c1', name: 'Box', baseUrl: 'http://h/v1', revision: 4 });
    expect(updateInput(record, draftOf(record))).toBeNull();
    expect(updateInput(record, { ...draftOf(record), baseUrl: '', apiKey: 'sk-new' })).toEqual({
      connectionId: 'c1',
      expectedRevision: 4,
      baseUrl: null,
      apiKey: 'sk-new',
    });
  });

  it('takes timeouts in whole seconds from 1 to 3600, and sends them only when they differ', () => {
    const draft = { ...emptyDraft('ollama') };
    expect(draft).toMatchObject({ firstTokenTimeout: '120', idleTimeout: '60' });
    expect(validateConnectionDraft({ ...draft, firstTokenTimeout: '0', idleTimeout: '2.5' })).toEqual({
      firstTokenTimeout: 'Enter whole seconds from 1 to 3600.',
      idleTimeout: 'Enter whole seconds from 1 to 3600.',
    });
    expect(validateConnectionDraft({ ...draft, firstTokenTimeout: '3601' }).firstTokenTimeout).toBeDefined();
    expect(createInput({ ...draft, firstTokenTimeout: ' 300 ' })).toEqual({
      name: 'Ollama',
      providerType: 'ollama',
      firstTokenTimeoutSeconds: 300,
    });
    const record = connection({ connectionId: 'c1', revision: 2, idleTimeoutSeconds: 60 });
    expect(updateInput(record, { ...draftOf(record), idleTimeout: '15' })).toEqual({
      connectionId: 'c1',
      expectedRevision: 2,
      idleTimeoutSeconds: 15,
    });
  });

  it("takes a Codex connection's codex binary as a full path, sends it only for Codex, and null when emptied", () => {
    const codex = { ...emptyDraft('codex'), codexBinary: ' /opt/codex/bin/codex ' };
    expect(validateConnectionDraft(codex)).toEqual({});
    expect(validateConnectionDraft({ ...codex, codexBinary: 'codex' }).codexBinary).toMatch(/full path/);
    expect(createInput(codex)).toMatchObject({ providerType: 'codex', codexBinary: '/opt/codex/bin/codex' });
    expect(createInput({ ...codex, providerType: 'ollama' })).not.toHaveProperty('codexBinary');
    const stored = connection({
      connectionId: 'c1',
      providerType: 'codex',
      baseUrl: null,
      codexBinary: '/opt/codex/bin/codex',
      revision: 4,
    });
    expect(draftOf(stored).codexBinary).toBe('/opt/codex/bin/codex');
    expect(updateInput(stored, draftOf(stored))).toBeNull();
    expect(updateInput(stored, { ...draftOf(stored), codexBinary: '' })).toEqual({
      connectionId: 'c1',
      expectedRevision: 4,
      codexBinary: null,
    });
    expect(updateInput(stored, { ...draftOf(stored), codexBinary: '/usr/bin/codex' })).toEqual({
      connectionId: 'c1',
      expectedRevision: 4,
      codexBinary: '/usr/bin/codex',
    });
  });

  it('says a verdict in a few words', () => {
    expect(verdictLabel('ok')).toEqual({ text: 'Works', tone: 'ok' });
    expect(verdictLabel('bad_key').tone).toBe('bad');
    // An agent run as a program has no server: its failure is the agent's.
    expect(verdictLabel('server_error', 'openai').text).toBe('Server error');
    expect(verdictLabel('server_error', 'acp')).toEqual({ text: 'Agent failed', tone: 'bad' });
  });
});
