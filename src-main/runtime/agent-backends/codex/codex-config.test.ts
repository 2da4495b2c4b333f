import { describe, expect, it } from 'vitest';
import { appServerLaunch, codexPolicies, type CodexSettings } from './codex-config';

const base: CodexSettings = {
  binary: '/bin/codex',
  model: 'gpt-5.5',
  baseUrl: null,
  apiKey: null,
  codexHome: '/data/codex/home',
  tmpDir: '/data/codex/tmp',
};
const configOf = (args: readonly string[]) => args.flatMap((arg, index) => (args[index - 1] === '-c' ? [arg] : []));

describe('the app-server launch', () => {
  it('with Codex’s own login: no provider of Cairn’s, Cairn’s CODEX_HOME, no key in the environment', () => {
    const launch = appServerLaunch(base, '/work', { PATH: '/usr/bin', OPENAI_API_KEY: 'sk-leak', SECRET: 'x' });
    expect(launch.args.slice(0, 1)).toEqual(['app-server']);
    expect(configOf(launch.args)).toEqual([
      'model="gpt-5.5"',
      'suppress_unstable_features_warning=true',
      'shell_environment_policy.ignore_default_excludes=false',
      'shell_environment_policy.exclude=["CODEX_CONNECTION_API_KEY"]',
    ]);
    expect(launch.args).toEqual(
      expect.arrayContaining(['--disable', 'plugins', '--enable', 'default_mode_request_user_input']),
    );
    expect(launch.env).toEqual({
      CODEX_HOME: '/data/codex/home',
      TMPDIR: '/data/codex/tmp',
      OPENAI_API_KEY: '',
      PATH: '/usr/bin',
    });
  });

  it('with a key from the vault: OpenAI through a provider that reads it from the environment only', () => {
    const launch = appServerLaunch({ ...base, apiKey: 'sk-vault' }, '/work', {});
    const config = configOf(launch.args);
    expect(config).toContain('model_providers.cairn.base_url="https://api.openai.com/v1"');
    expect(config).toContain('model_providers.cairn.env_key="CODEX_CONNECTION_API_KEY"');
    expect(launch.args.join(' ')).not.toContain('sk-vault');
    expect(launch.env.CODEX_CONNECTION_API_KEY).toBe('sk-vault');
    // …and Codex keeps it, and every name like a secret, out of the commands it runs.
    expect(config).toEqual(
      expect.arrayContaining([
        'shell_environment_policy.ignore_default_excludes=false',
        'shell_environment_policy.exclude=["CODEX_CONNECTION_API_KEY"]',
      ]),
    );
  });

  it('with a Responses base URL: that server, the Responses wire format, the retries asked for', () => {
    const config = configOf(
      appServerLaunch({ ...base, baseUrl: 'http://127.0.0.1:9/v1', retries: 0 }, '/work', {}).args,
    );
    expect(config).toEqual(
      expect.arrayContaining([
        'model_provider="cairn"',
        'model_providers.cairn.base_url="http://127.0.0.1:9/v1"',
        'model_providers.cairn.wire_api="responses"',
        'model_providers.cairn.request_max_retries=0',
        'model_providers.cairn.stream_max_retries=0',
      ]),
    );
    expect(config.some((entry) => entry.includes('env_key'))).toBe(false);
  });
});

describe('permission modes as Codex policies', () => {
  it('Explore reads only and never asks; Ask asks before every change; Full runs everything', () => {
    expect(codexPolicies('explore')).toMatchObject({ approvalPolicy: 'never', sandboxPolicy: { type: 'readOnly' } });
    expect(codexPolicies('ask')).toMatchObject({ approvalPolicy: 'on-request', sandboxPolicy: { type: 'readOnly' } });
    expect(codexPolicies('full')).toMatchObject({
      approvalPolicy: 'never',
      sandbox: 'danger-full-access',
      sandboxPolicy: { type: 'dangerFullAccess' },
    });
  });
});
