/** What Settings → Editors shows to copy: the command that starts Cairn's agent, and Zed's settings for it. */

/** A word for a POSIX shell: as it is when it is plain, else in single quotes. */
export function shellWord(word: string): string {
  return /^[A-Za-z0-9_./:@%+=,-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

/** The arguments after `node`: the launcher, `acp`, and the data directory whose host to use. */
export function acpArguments(launcher: string, dataDir: string): string[] {
  return [launcher, 'acp', '--data-dir', dataDir];
}

/** `node /path/to/cairn/bin/cairn.mjs acp --data-dir …`, ready for a terminal. */
export function acpCommandLine(launcher: string, dataDir: string): string {
  return ['node', ...acpArguments(launcher, dataDir)].map(shellWord).join(' ');
}

/** The `agent_servers` entry of Zed's settings.json that adds Cairn to its agent panel. */
export function zedSettingsSnippet(launcher: string, dataDir: string): string {
  const entry = { type: 'custom', command: 'node', args: acpArguments(launcher, dataDir), env: {} };
  return JSON.stringify({ agent_servers: { Cairn: entry } }, null, 2);
}
