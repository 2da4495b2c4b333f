import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestHost, type TestHost } from '../testing/host-fixture';
import {
  startOpenAIChatServer,
  TEST_API_KEY,
  textReply,
  toolCallReply,
  type ProviderTestServer,
} from '../testing/provider-servers';
import { tempWorkspace } from '../testing/workspace-fixture';

let t: TestHost;
let space: ReturnType<typeof tempWorkspace>;

const skillText = (name: string, description: string, tools: string[] = [], body = `Steps for ${name}.`) =>
  `---\nname: ${name}\ndescription: ${description}\n${tools.length === 0 ? '' : `required-tools: [${tools.join(', ')}]\n`}---\n${body}\n`;
const writeSkill = (id: string, text: string) => space.write(`.agents/skills/${id}/SKILL.md`, text);

beforeEach(async () => {
  space = tempWorkspace();
  t = await startTestHost();
  writeSkill('summary', skillText('Summary', 'Sums up a folder', ['read_file']));
  writeSkill('write-notes', skillText('Write notes', 'Writes notes', ['write_file']));
  writeSkill('broken', '---\nname: [oops\n---\n');
  mkdirSync(path.join(t.dataDir, 'skills', 'personal-one'), { recursive: true });
  writeFileSync(path.join(t.dataDir, 'skills', 'personal-one', 'SKILL.md'), skillText('Personal', 'Mine'));
});
afterEach(async () => {
  await t.close();
  space.cleanup();
});

const ids = (list: ReadonlyArray<{ id: string }>) => list.map((skill) => skill.id);

describe('skill.list', () => {
  it('lists a session’s invocable skills by its permission mode, and the others with why not', async () => {
    const { session } = await t.call('session.create', { workspacePath: space.root, permissionMode: 'explore' });
    const explore = await t.call('skill.list', { target: { kind: 'session', sessionId: session.sessionId } });
    expect(ids(explore.invocable)).toEqual(['personal-one', 'summary']);
    expect(explore.unavailable.map((skill) => [skill.id, skill.why.reason])).toEqual([
      ['broken', 'broken'],
      ['write-notes', 'missing_tools'],
    ]);
    expect(explore.unavailable[1]?.why).toMatchObject({ missingTools: ['write_file'] });
    await t.call('session.configure', { sessionId: session.sessionId, permissionMode: 'ask' });
    const ask = await t.call('skill.list', { target: { kind: 'session', sessionId: session.sessionId } });
    expect(ids(ask.invocable)).toEqual(['personal-one', 'summary', 'write-notes']);
  });

  it('previews a new session: workspace and permission mode decide', async () => {
    const preview = (permissionMode: 'explore' | 'full', workspacePath: string | null) =>
      t.call('skill.list', { target: { kind: 'new_session', workspacePath, permissionMode } });
    expect(ids((await preview('explore', space.root)).invocable)).toEqual(['personal-one', 'summary']);
    expect(ids((await preview('full', space.root)).invocable)).toEqual(['personal-one', 'summary', 'write-notes']);
    // Without a workspace there are no workspace skills and no workspace tools.
    expect(ids((await preview('full', null)).invocable)).toEqual(['personal-one']);
    const missing = await t.invoke('skill.list', {
      target: { kind: 'new_session', workspacePath: null, permissionMode: 'ask', connectionId: 'nope' },
    });
    expect(missing).toMatchObject({ ok: false, error: { code: 'not_found' } });
  });

  it('answers session_archived for an archived session and not_found for a removed one', async () => {
    const { session } = await t.call('session.create', { workspacePath: space.root });
    await t.call('session.archive', { sessionId: session.sessionId, archived: true });
    expect(await t.invoke('skill.list', { target: { kind: 'session', sessionId: session.sessionId } })).toMatchObject({
      ok: false,
      error: { code: 'session_archived' },
    });
    await t.call('session.remove', { sessionId: session.sessionId });
    expect(await t.invoke('skill.list', { target: { kind: 'session', sessionId: session.sessionId } })).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
  });
});

describe('load_skill', () => {
  let server: ProviderTestServer;
  let sessionId: string;
  beforeEach(async () => {
    server = await startOpenAIChatServer({ models: ['local-model'] });
    const { connection } = await t.call('connection.create', {
      name: 'Local',
      providerType: 'openai_compatible',
      baseUrl: server.baseUrl,
      apiKey: TEST_API_KEY,
    });
    sessionId = (
      await t.call('session.create', {
        connectionId: connection.connectionId,
        model: 'local-model',
        workspacePath: space.root,
        permissionMode: 'explore',
      })
    ).session.sessionId;
  });
  afterEach(async () => server.close());

  it('the agent sees invocable skills in its instructions, loads the file’s current text, and the next request carries it', async () => {
    server.enqueue(
      toolCallReply({ id: 'call_1', name: 'load_skill', input: { id: 'summary' } }, 2),
      textReply('Done.'),
    );
    writeSkill(
      'summary',
      skillText('Summary', 'Sums up a folder', ['read_file'], 'CHANGED after listing: count the files.'),
    );
    await t.call('turn.start', { sessionId, turnId: 't1', text: 'Sum up this folder' });
    await t.waitForTurn(sessionId, 't1', ['completed']);
    const first = JSON.stringify((await server.waitForModelCall(0)).body);
    expect(first).toContain('summary: Summary — Sums up a folder');
    expect(first).not.toContain('write-notes: '); // not invocable in Explore
    expect(first).toContain('load_skill');
    const second = JSON.stringify((await server.waitForModelCall(1)).body);
    expect(second).toContain('CHANGED after listing: count the files.');
    const items = (await t.call('transcript.page', { sessionId, limit: 50 })).items;
    expect(items.map((item) => item.kind)).toEqual(['user_message', 'tool_call', 'tool_result', 'assistant_message']);
  });

  it('a removed skill fails the call with a clear message', async () => {
    rmSync(path.join(space.root, '.agents/skills/summary'), { recursive: true });
    server.enqueue(
      toolCallReply({ id: 'call_1', name: 'load_skill', input: { id: 'summary' } }, 2),
      textReply('Sorry.'),
    );
    await t.call('turn.start', { sessionId, turnId: 't1', text: 'Sum up' });
    await t.waitForTurn(sessionId, 't1', ['completed']);
    const result = (await t.call('transcript.page', { sessionId, limit: 50 })).items.find(
      (item) => item.kind === 'tool_result',
    );
    expect(result?.data).toMatchObject({
      isError: true,
      output: { error: expect.stringContaining('There is no skill "summary"') },
    });
  });

  it('turn.start with a skill records load_skill before the first model request, which carries the text', async () => {
    server.enqueue(textReply('Following it.'));
    await t.call('turn.start', { sessionId, turnId: 't1', text: 'Go', skillId: 'summary' });
    // The session is titled by the skill, then the words added, not by the words alone.
    expect((await t.call('session.get', { sessionId })).session.title).toBe('Summary: Go');
    await t.waitForTurn(sessionId, 't1', ['completed']);
    const items = (await t.call('transcript.page', { sessionId, limit: 50 })).items;
    expect(items.map((item) => item.kind)).toEqual(['user_message', 'tool_call', 'tool_result', 'assistant_message']);
    expect(items[1]?.data).toMatchObject({ toolName: 'load_skill', input: { id: 'summary' } });
    expect(JSON.stringify((await server.waitForModelCall(0)).body)).toContain('Steps for Summary.');
    // A retry of the same start answers with the recorded turn, even after the skill is gone.
    rmSync(path.join(space.root, '.agents/skills/summary'), { recursive: true });
    expect(await t.call('turn.start', { sessionId, turnId: 't1', text: 'Go', skillId: 'summary' })).toMatchObject({
      created: false,
    });
    expect(await t.invoke('turn.start', { sessionId, turnId: 't2', text: 'Go', skillId: 'write-notes' })).toMatchObject(
      { ok: false, error: { code: 'operation_unavailable' } },
    );
    expect(await t.invoke('turn.start', { sessionId, turnId: 't3', text: 'Go', skillId: 'summary' })).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
  });
});

describe('the Offline demo', () => {
  it('/skill ID loads a skill through load_skill', async () => {
    const { session } = await t.call('session.create', { workspacePath: space.root });
    await t.call('turn.start', { sessionId: session.sessionId, turnId: 't1', text: '/skill summary' });
    await t.waitForTurn(session.sessionId, 't1', ['completed']);
    const items = (await t.call('transcript.page', { sessionId: session.sessionId, limit: 50 })).items;
    const result = items.find((item) => item.kind === 'tool_result');
    expect(result?.data).toMatchObject({
      toolName: 'load_skill',
      isError: false,
      output: { id: 'summary', instructions: 'Steps for Summary.\n' },
    });
  });
});

describe('a child agent whose definition limits its tools', () => {
  it('is offered, and can load, only the skills its own tools allow (missing_tools)', async () => {
    space.write(
      '.agents/agents/reader.md',
      '---\nname: Reader\ndescription: Reads files\ntools: [read_file, load_skill]\n---\nRead what you are asked to.\n',
    );
    const { session: root } = await t.call('session.create', { workspacePath: space.root, permissionMode: 'full' });
    await t.call('turn.start', {
      sessionId: root.sessionId,
      turnId: 't1',
      text: `/spawn reader ${JSON.stringify('/skill write-notes')} wait`,
    });
    await t.waitForTurn(root.sessionId, 't1', ['completed']);
    const [child] = (await t.call('agent.tree', { sessionId: root.sessionId })).tree.children;
    const childId = child!.childSessionId;

    const listed = await t.call('skill.list', { target: { kind: 'session', sessionId: childId } });
    expect(ids(listed.invocable)).toEqual(['personal-one', 'summary']);
    expect(listed.unavailable.find((skill) => skill.id === 'write-notes')?.why).toMatchObject({
      reason: 'missing_tools',
      missingTools: ['write_file'],
    });

    const items = (await t.call('transcript.page', { sessionId: childId, limit: 50 })).items;
    const loaded = items.find((item) => item.kind === 'tool_result' && item.data?.toolName === 'load_skill');
    expect(loaded?.data).toMatchObject({
      isError: true,
      output: { error: expect.stringContaining('needs the tool write_file') },
    });
    // The parent, in Full with the same workspace, may use it.
    expect(
      ids((await t.call('skill.list', { target: { kind: 'session', sessionId: root.sessionId } })).invocable),
    ).toContain('write-notes');
  });
});
