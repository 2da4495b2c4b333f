/**
 * The environment of every process Cairn starts (commands an agent runs, agents, MCP servers, git,
 * npm): the one place that decides it, so Cairn's own credentials never reach a child.
 *
 * - Cairn's own variables (`CAIRN_*`: the host's token, data directory, port, …) are never passed.
 * - Commands an agent runs (`run_shell`, an ACP agent's `terminal/create`) also leave out variables
 *   whose names look like secrets (containing KEY, SECRET, TOKEN or PASSWORD, as Codex does by
 *   default), except the names the person passes through by a host setting.
 * - What a caller adds explicitly (`extra`: an agent's own API key from its connection, git's
 *   temporary index) is added last, as given.
 */

export interface ChildEnvironmentOptions {
  /** Where the inherited variables come from. Default: this process's environment. */
  readonly base?: NodeJS.ProcessEnv;
  /** Leave out variables whose names look like secrets (commands an agent runs). */
  readonly scrubSecrets: boolean;
  /** Names kept although they look like secrets (the host's pass-through setting); never a `CAIRN_*` name. */
  readonly passThrough?: readonly string[];
  /** Only these names are inherited from `base` (an agent's minimal environment). Default: every name. */
  readonly only?: readonly string[];
  /** Added last, as given: variables the child needs from Cairn on purpose. */
  readonly extra?: Readonly<Record<string, string>>;
}

/** Names Cairn keeps for itself: its token, data directory, options. */
export function isCairnVariable(name: string): boolean {
  return /^CAIRN_/i.test(name);
}

/** Names that look like they hold a secret (an API key, a token, a password). */
export function looksLikeSecret(name: string): boolean {
  return /KEY|SECRET|TOKEN|PASSWORD/i.test(name);
}

export function childEnvironment(options: ChildEnvironmentOptions): Record<string, string> {
  const base = options.base ?? process.env;
  const passed = new Set(options.passThrough ?? []);
  const names = options.only ?? Object.keys(base);
  const env: Record<string, string> = {};
  for (const name of names) {
    const value = base[name];
    if (value === undefined || isCairnVariable(name)) continue;
    if (options.scrubSecrets && looksLikeSecret(name) && !passed.has(name)) continue;
    env[name] = value;
  }
  return { ...env, ...options.extra };
}

/**
 * The pass-through setting as given to the host (`--pass-env`, `CAIRN_PASS_ENV`): variable names
 * separated by commas or spaces. A name that is not a variable name, or is one of Cairn's own, is an error.
 */
export function parsePassThrough(text: string | undefined): string[] {
  if (text === undefined) return [];
  const names = text.split(/[\s,]+/).filter((name) => name !== '');
  for (const name of names) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name))
      throw new Error(
        `"${name}" is not an environment variable name (letters, digits and _, not starting with a digit).`,
      );
    if (isCairnVariable(name))
      throw new Error(`${name} is one of Cairn's own variables; Cairn never passes those to a command.`);
  }
  return names;
}
