import { join } from 'node:path';
import type { PermissionMode } from '../../../../src-shared/model';
import { childEnvironment } from '../../shell/child-environment';
import type { CodexTarget } from '../../connections/codex-connection';
import type { AgentLaunch } from '../agent-process/agent-process';

/** How a Codex connection reaches its model, with the folders Cairn owns. */
export interface CodexSettings extends CodexTarget {
  /** Cairn's CODEX_HOME (inside its data directory) and a temp folder beside it. */
  readonly codexHome: string;
  readonly tmpDir: string;
}

/** The variable that carries the connection's key to Codex (never a `CAIRN_*` name: those stay Cairn's). */
const KEY_VARIABLE = 'CODEX_CONNECTION_API_KEY';

/** Cairn's own CODEX_HOME inside a data directory: Codex keeps its threads and settings there, never in ~/.codex. */
export function codexHomeOf(dataDir: string): string {
  return join(dataDir, 'codex', 'home');
}
const PROVIDER = 'cairn';

/**
 * What Codex leaves out of the environment of the commands it runs, in every mode: names containing
 * KEY, SECRET or TOKEN (Codex's own patterns, which it applies only when told:
 * `ignore_default_excludes` defaults to true), and the variable carrying the connection's key by name.
 */
const SCRUBBED_COMMAND_ENV = [
  'shell_environment_policy.ignore_default_excludes=false',
  `shell_environment_policy.exclude=[${toml(KEY_VARIABLE)}]`,
];
const OPENAI_BASE_URL = 'https://api.openai.com/v1';

/** The app-server command line and environment for a Codex connection. */
export function appServerLaunch(
  settings: CodexSettings,
  cwd: string,
  env: NodeJS.ProcessEnv = process.env,
): AgentLaunch {
  const config: string[] = [
    `model=${toml(settings.model)}`,
    'suppress_unstable_features_warning=true',
    ...SCRUBBED_COMMAND_ENV,
  ];
  const ownLogin = settings.baseUrl === null && settings.apiKey === null;
  if (!ownLogin) {
    config.push(
      `model_provider=${toml(PROVIDER)}`,
      `model_providers.${PROVIDER}.name=${toml('Cairn')}`,
      `model_providers.${PROVIDER}.base_url=${toml(settings.baseUrl ?? OPENAI_BASE_URL)}`,
      `model_providers.${PROVIDER}.wire_api="responses"`,
    );
    if (settings.apiKey !== null) config.push(`model_providers.${PROVIDER}.env_key=${toml(KEY_VARIABLE)}`);
    if (settings.retries !== undefined) {
      config.push(
        `model_providers.${PROVIDER}.request_max_retries=${settings.retries}`,
        `model_providers.${PROVIDER}.stream_max_retries=${settings.retries}`,
      );
    }
  }
  config.push(...(settings.extraConfig ?? []));
  const args = [
    'app-server',
    ...config.flatMap((entry) => ['-c', entry]),
    '--disable',
    'plugins',
    '--enable',
    'default_mode_request_user_input',
  ];
  const own: Record<string, string> = { CODEX_HOME: settings.codexHome, TMPDIR: settings.tmpDir, OPENAI_API_KEY: '' };
  if (settings.apiKey !== null) own[KEY_VARIABLE] = settings.apiKey;
  const childEnv = childEnvironment({
    base: env,
    scrubSecrets: false,
    only: ['PATH', 'HOME', 'LANG', 'LC_ALL', 'USER', 'SHELL', 'TERM'],
    extra: own,
  });
  return { binary: settings.binary, args, env: childEnv, cwd };
}

/**
 * A session's permission mode as Codex policies. Explore: read-only sandbox, never escalates. Ask:
 * the turn's sandbox is read-only with approvals on request, so every change (a patch, a command that
 * writes) comes to the person as an approval, as Cairn's own Ask mode does (a workspace-write
 * sandbox would let Codex apply patches unasked). Auto: Codex's own workspace-write sandbox (writes in
 * the workspace, network off), asking only to go beyond it. Full: no sandbox, no approvals.
 */
export function codexPolicies(mode: PermissionMode) {
  switch (mode) {
    case 'explore':
      return {
        approvalPolicy: 'never',
        sandbox: 'read-only',
        sandboxPolicy: { type: 'readOnly', networkAccess: false },
      } as const;
    case 'ask':
      return {
        approvalPolicy: 'on-request',
        sandbox: 'read-only',
        sandboxPolicy: { type: 'readOnly', networkAccess: false },
      } as const;
    case 'auto':
      return {
        approvalPolicy: 'on-request',
        sandbox: 'workspace-write',
        sandboxPolicy: { type: 'workspaceWrite', networkAccess: false },
      } as const;
    case 'full':
      return {
        approvalPolicy: 'never',
        sandbox: 'danger-full-access',
        sandboxPolicy: { type: 'dangerFullAccess' },
      } as const;
  }
}

function toml(value: string): string {
  return JSON.stringify(value);
}
