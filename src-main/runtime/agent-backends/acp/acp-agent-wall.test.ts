import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { acpAgentWall, endpointPattern } from './acp-agent-wall';
import { automaticDecision } from './acp-turn-policy';

describe("an ACP agent's wall", () => {
  it('allows the model endpoint of the connection as host:port, with the scheme’s port when none is given', () => {
    expect(endpointPattern('http://127.0.0.1:4321/v1')).toBe('127.0.0.1:4321');
    expect(endpointPattern('https://API.example.com/v1')).toBe('api.example.com:443');
    expect(endpointPattern('http://models.internal')).toBe('models.internal:80');
    expect(endpointPattern('not a url')).toBeNull();
  });

  it('makes each known agent’s own state writable under its HOME (made when missing), and its default service its only host', () => {
    const home = mkdtempSync(join(tmpdir(), 'cairn-agent-home-'));
    onTestFinished(() => rmSync(home, { recursive: true, force: true }));
    const claude = acpAgentWall(
      { command: 'node', args: [], env: { HOME: home }, preset: { kind: 'claude', model: null } },
      null,
    );
    expect(claude).toEqual({
      home,
      writable: [join(home, '.claude'), join(home, '.claude.json')],
      hosts: ['api.anthropic.com:443'],
    });
    expect(existsSync(join(home, '.claude'))).toBe(true);
    expect(readFileSync(join(home, '.claude.json'), 'utf8')).toBe('');
    const opencode = acpAgentWall(
      { command: 'opencode', args: ['acp'], env: { HOME: home }, preset: { kind: 'opencode', model: 'm' } },
      'http://127.0.0.1:9/v1',
    );
    expect(opencode.writable).toContain(join(home, '.local', 'share', 'opencode'));
    expect(opencode.hosts).toEqual(['127.0.0.1:9']);
    // A custom agent: nothing of its own, and no network without a base URL.
    expect(acpAgentWall({ command: '/bin/agent', args: [], env: { HOME: home } }, null)).toEqual({
      home,
      writable: [],
      hosts: [],
    });
  });

  it('allows the agent’s own permission requests in Auto only when it runs inside the wall', () => {
    expect(automaticDecision('auto', false, true)).toBe('allow_once');
    expect(automaticDecision('auto', false, false)).toBeNull();
    expect(automaticDecision('ask', false, true)).toBeNull();
    expect(automaticDecision('explore', false, true)).toBe('deny');
  });
});
