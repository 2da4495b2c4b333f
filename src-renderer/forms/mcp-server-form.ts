import type { McpServerRecord, McpTransport } from '../../src-shared/mcp-model';
import type { OperationInput } from '../../src-shared/operations';

/** One environment variable (stdio) or header (HTTP) row of the form. */
export interface McpSettingDraft {
  readonly name: string;
  readonly value: string;
  readonly secret: boolean;
  /** A secret whose value is stored already: an empty value keeps it. */
  readonly stored: boolean;
}

export interface McpServerDraft {
  readonly name: string;
  readonly transport: McpTransport;
  readonly command: string;
  /** One argument per line. */
  readonly args: string;
  readonly cwd: string;
  readonly url: string;
  readonly settings: readonly McpSettingDraft[];
}

export type McpServerField = 'name' | 'command' | 'url' | 'settings';
export type McpServerProblems = Partial<Record<McpServerField, string>>;

export function emptyMcpDraft(): McpServerDraft {
  return { name: '', transport: 'stdio', command: '', args: '', cwd: '', url: '', settings: [] };
}

export function mcpDraftOf(server: McpServerRecord): McpServerDraft {
  const settings = server.transport === 'stdio' ? server.env : server.headers;
  return {
    name: server.name,
    transport: server.transport,
    command: server.command ?? '',
    args: server.args.join('\n'),
    cwd: server.cwd ?? '',
    url: server.url ?? '',
    settings: settings.map((setting) => ({
      name: setting.name,
      value: setting.value ?? '',
      secret: setting.secret,
      stored: setting.secret && setting.hasValue,
    })),
  };
}

const SETTING_NAME = /^[A-Za-z0-9_.-]+$/;

export function validateMcpDraft(draft: McpServerDraft): McpServerProblems {
  const problems: { -readonly [K in McpServerField]?: string } = {};
  if (draft.name.trim() === '') problems.name = 'Give the server a name.';
  if (draft.transport === 'stdio' && draft.command.trim() === '')
    problems.command = 'Give the command that starts the server.';
  if (draft.transport === 'http') {
    let valid = false;
    try {
      const url = new URL(draft.url.trim());
      valid = url.protocol === 'http:' || url.protocol === 'https:';
    } catch {
      valid = false;
    }
    if (!valid) problems.url = 'Use an http:// or https:// address.';
  }
  const what = draft.transport === 'stdio' ? 'variable' : 'header';
  const names = new Set<string>();
  for (const setting of draft.settings) {
    const name = setting.name.trim();
    if (!SETTING_NAME.test(name)) problems.settings = `A ${what} name uses letters, digits and _ . - only.`;
    else if (names.has(name)) problems.settings = `The ${what} ${name} appears twice.`;
    else if (setting.secret && !setting.stored && setting.value === '')
      problems.settings = `Give a value for the secret ${what} ${name}.`;
    names.add(name);
  }
  return problems;
}

export function hasMcpProblems(problems: McpServerProblems): boolean {
  return Object.keys(problems).length > 0;
}

function settingsInput(draft: McpServerDraft) {
  return draft.settings.map((setting) => ({
    name: setting.name.trim(),
    secret: setting.secret,
    // A stored secret left empty keeps its value; anything else sends what was typed.
    ...(setting.secret && setting.stored && setting.value === '' ? {} : { value: setting.value }),
  }));
}

function argsOf(draft: McpServerDraft): string[] {
  return draft.args
    .split('\n')
    .map((arg) => arg.trim())
    .filter((arg) => arg !== '');
}

export function mcpCreateInput(draft: McpServerDraft): OperationInput<'mcp.server.create'> {
  return draft.transport === 'stdio'
    ? {
        name: draft.name.trim(),
        transport: 'stdio',
        command: draft.command.trim(),
        args: argsOf(draft),
        ...(draft.cwd.trim() === '' ? {} : { cwd: draft.cwd.trim() }),
        env: settingsInput(draft),
      }
    : { name: draft.name.trim(), transport: 'http', url: draft.url.trim(), headers: settingsInput(draft) };
}

export function mcpUpdateInput(server: McpServerRecord, draft: McpServerDraft): OperationInput<'mcp.server.update'> {
  const base = { serverId: server.serverId, expectedRevision: server.revision, name: draft.name.trim() };
  return server.transport === 'stdio'
    ? {
        ...base,
        command: draft.command.trim(),
        args: argsOf(draft),
        cwd: draft.cwd.trim() === '' ? null : draft.cwd.trim(),
        env: settingsInput(draft),
      }
    : { ...base, url: draft.url.trim(), headers: settingsInput(draft) };
}

/** A server's state in a few words, and the tone it is shown in. */
export function mcpStateLabel(server: McpServerRecord): { text: string; tone: 'ok' | 'warn' | 'bad' | 'none' } {
  switch (server.status.state) {
    case 'disabled':
      return { text: 'Turned off', tone: 'none' };
    case 'stopped':
      return { text: 'Starts when used', tone: 'none' };
    case 'starting':
      return { text: 'Starting…', tone: 'warn' };
    case 'connected':
      return {
        text: `Connected · ${server.status.tools.length} tool${server.status.tools.length === 1 ? '' : 's'}`,
        tone: 'ok',
      };
    case 'failed':
      return { text: 'Failed', tone: 'bad' };
  }
}
