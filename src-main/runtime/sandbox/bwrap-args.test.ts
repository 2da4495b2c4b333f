import { describe, expect, it } from 'vitest';
import { bwrapArgs, type SandboxLayout } from './bwrap-args';

const layout: SandboxLayout = {
  tmpDir: '/tmp/cairn-sandbox-1',
  caches: ['/home/a/.npm'],
  writable: ['/home/a/.local/share/cairn/worktrees/repo-1', '/home/a/repo/.git/worktrees/repo-1'],
  denied: [
    { path: '/home/a/.ssh', kind: 'folder' },
    { path: '/home/a/.netrc', kind: 'file' },
    { path: '/home/a/.local/share/cairn', kind: 'folder' },
  ],
  readableAgain: ['/home/a/.local/share/cairn/agents'],
  readOnly: ['/home/a/.local/share/cairn/worktrees/repo-1/.claude/settings.json'],
  cwd: '/home/a/.local/share/cairn/worktrees/repo-1',
};

describe('the bwrap command line', () => {
  const args = bwrapArgs(layout, ['bash', '-c', 'true']);
  const at = (...words: string[]) =>
    args.findIndex((_, index) => words.every((word, offset) => args[index + offset] === word));

  it('starts read-only with a private /tmp, an empty /run and its own namespaces, and ends with the command', () => {
    expect(args.slice(0, 13)).toEqual([
      '--ro-bind',
      '/',
      '/',
      '--dev',
      '/dev',
      '--proc',
      '/proc',
      '--bind',
      '/tmp/cairn-sandbox-1',
      '/tmp',
      '--tmpfs',
      '/run',
      '--bind',
    ]);
    expect(args).toEqual(expect.arrayContaining(['--unshare-pid', '--unshare-net', '--die-with-parent']));
    expect(args).not.toContain('--new-session');
    expect(args.slice(-4)).toEqual(['--', 'bash', '-c', 'true']);
  });

  it('hides a denied folder that holds the workspace before mounting the workspace, and every other after it', () => {
    const dataDir = at('--tmpfs', '/home/a/.local/share/cairn');
    const worktree = at('--bind', layout.writable[0]!, layout.writable[0]!);
    const ssh = at('--tmpfs', '/home/a/.ssh');
    expect(dataDir).toBeGreaterThan(-1);
    expect(dataDir).toBeLessThan(worktree);
    expect(ssh).toBeGreaterThan(worktree);
    expect(at('--ro-bind', '/dev/null', '/home/a/.netrc')).toBeGreaterThan(worktree);
  });

  it('mounts back what stays readable and what is read-only inside, and makes denied folders read-only last', () => {
    const agents = at('--ro-bind', '/home/a/.local/share/cairn/agents', '/home/a/.local/share/cairn/agents');
    const settings = at('--ro-bind', layout.readOnly[0]!, layout.readOnly[0]!);
    const sealed = at('--remount-ro', '/home/a/.local/share/cairn');
    expect(agents).toBeGreaterThan(at('--tmpfs', '/home/a/.local/share/cairn'));
    expect(settings).toBeGreaterThan(at('--bind', layout.writable[0]!, layout.writable[0]!));
    expect(sealed).toBeGreaterThan(Math.max(agents, settings));
    expect(args[at('--chdir') + 1]).toBe(layout.cwd);
  });

  it("for an agent: loopback exempt from the proxy (the namespace's own), and a loopback endpoint served inside through the proxy", () => {
    const agent = bwrapArgs(
      {
        ...layout,
        proxy: {
          socket: '/run/p.sock',
          socat: '/usr/bin/socat',
          loopbackDirect: true,
          loopbackForwards: [
            { host: '127.0.0.1', port: 4321 },
            { host: 'evil;rm', port: 1 },
          ],
        },
      },
      ['agent'],
    );
    expect(agent[agent.indexOf('NO_PROXY') + 1]).toBe('localhost,127.0.0.1,::1');
    const bridge = agent[agent.indexOf('-c') + 1] ?? '';
    expect(bridge).toContain(
      'TCP-LISTEN:4321,bind=127.0.0.1,reuseaddr,fork PROXY:127.0.0.1:127.0.0.1:4321,proxyport=3128',
    );
    expect(bridge).not.toContain('evil');
    const command = bwrapArgs({ ...layout, proxy: { socket: '/run/p.sock', socat: '/usr/bin/socat' } }, ['true']);
    expect(command[command.indexOf('NO_PROXY') + 1]).toBe('');
  });
});
