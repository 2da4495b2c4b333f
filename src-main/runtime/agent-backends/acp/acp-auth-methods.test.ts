import { describe, expect, it } from 'vitest';
import { authMethodsOf, isAuthRequired, loginCommandLine, terminalMethodEnv } from './acp-auth-methods';

describe('an agent’s ways to sign in', () => {
  it('reads authMethods as untrusted input: agent by default, terminal with its args, env_var with its names', () => {
    expect(
      authMethodsOf([
        { id: 'oauth', name: 'Log in' },
        { id: 'tui', name: 'In a terminal', type: 'terminal', args: ['--login', 3], description: 'TUI' },
        { id: 'key', name: 'API key', type: 'env_var', vars: [{ name: 'OPENAI_API_KEY' }, {}] },
        { id: 'odd', name: 'Unknown', type: 'carrier-pigeon' },
        { name: 'no id' },
        'nonsense',
      ]),
    ).toEqual([
      { id: 'oauth', name: 'Log in', description: null, kind: 'agent', args: [], vars: [] },
      { id: 'tui', name: 'In a terminal', description: 'TUI', kind: 'terminal', args: ['--login'], vars: [] },
      { id: 'key', name: 'API key', description: null, kind: 'env_var', args: [], vars: ['OPENAI_API_KEY'] },
    ]);
    expect(authMethodsOf(undefined)).toEqual([]);
  });

  it('runs a terminal sign-in as the agent’s program with the method’s args in place of its own', () => {
    expect(loginCommandLine({ command: 'gemini', args: ['--acp'] }, ['--login'])).toEqual(['gemini', '--login']);
    expect(loginCommandLine({ command: '/usr/bin/node', args: ['/x/dist/index.js'] }, ['--cli', 'auth'])).toEqual([
      '/usr/bin/node',
      '/x/dist/index.js',
      '--cli',
      'auth',
    ]);
    expect(
      loginCommandLine({ command: 'node', args: ['--import', '/tsx.mjs', 'agent.ts', '--auth'] }, ['--login']),
    ).toEqual(['node', '--import', '/tsx.mjs', 'agent.ts', '--login']);
    expect(loginCommandLine({ command: 'python3', args: ['-m', 'agent', '--acp'] }, ['login'])).toEqual([
      'python3',
      '-m',
      'agent',
      'login',
    ]);
  });

  it('takes a terminal method’s variables, never one of Cairn’s own', () => {
    const raw = [{ id: 'tui', type: 'terminal', env: { MODE: 'login', CAIRN_TOKEN: 'x', 'bad name': 'y', N: 3 } }];
    expect(terminalMethodEnv(raw, 'tui')).toEqual({ MODE: 'login' });
    expect(terminalMethodEnv(raw, 'other')).toEqual({});
  });

  it('knows ACP’s auth_required', () => {
    expect(isAuthRequired({ code: -32000, message: 'Authentication required' })).toBe(true);
    expect(isAuthRequired({ code: -32603 })).toBe(false);
    expect(isAuthRequired(new Error('x'))).toBe(false);
  });
});
