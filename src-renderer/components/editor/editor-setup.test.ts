import { describe, expect, it } from 'vitest';
import { acpCommandLine, shellWord, zedSettingsSnippet } from './editor-setup';

describe('what Settings → Editors offers to copy', () => {
  it('writes the command with the launcher and the data directory, quoting what a shell would split', () => {
    expect(acpCommandLine('/home/ana/cairn/bin/cairn.mjs', '/home/ana/.local/share/cairn')).toBe(
      'node /home/ana/cairn/bin/cairn.mjs acp --data-dir /home/ana/.local/share/cairn',
    );
    expect(
      acpCommandLine('/Users/ana/My Code/cairn/bin/cairn.mjs', "/Users/ana/Library/Application Support/Ana's"),
    ).toBe(
      "node '/Users/ana/My Code/cairn/bin/cairn.mjs' acp --data-dir '/Users/ana/Library/Application Support/Ana'\\''s'",
    );
    expect(shellWord('$(rm -rf ~)')).toBe("'$(rm -rf ~)'");
  });

  it('gives Zed an agent_servers entry that runs the same command', () => {
    const snippet = JSON.parse(zedSettingsSnippet('/opt/cairn/bin/cairn.mjs', '/data/cairn')) as unknown;
    expect(snippet).toEqual({
      agent_servers: {
        Cairn: {
          type: 'custom',
          command: 'node',
          args: ['/opt/cairn/bin/cairn.mjs', 'acp', '--data-dir', '/data/cairn'],
          env: {},
        },
      },
    });
  });
});
