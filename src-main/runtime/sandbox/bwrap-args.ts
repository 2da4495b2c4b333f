/**
 * The bubblewrap command line for one sandboxed command: a pure function of its layout, so the wall
 * can be read (and tested) in one place. bwrap applies its mounts in order, each over the ones before:
 *
 * 1. The whole file system read-only, a fresh /dev, a /proc of the sandbox's own PID namespace (the
 *    host's processes are not in it), a private /tmp, and an empty /run (no sockets of the machine's
 *    services: Docker, D-Bus, agents).
 * 2. Package caches writable.
 * 3. Denied paths that hold the workspace (Cairn's data directory holds a session's worktree) are
 *    hidden first, so the workspace can be mounted back inside them.
 * 4. The workspace (and the parts of a repository's .git a worktree writes) writable.
 * 5. Every other denied path hidden: a folder becomes an empty folder (read-only once step 6 is
 *    done), a file an empty file.
 * 6. What stays readable inside a denied folder (installed ACP agents) mounted back read-only.
 * 7. Files inside the workspace that make code run later (.git/hooks, .git/config, …) read-only.
 *
 * Namespaces: PID (no signals or tracing of anything outside, and everything inside dies with its
 * init), network (none at all: with a proxy, its Unix socket is bound in at /run/cairn-proxy.sock and
 * socat inside bridges 127.0.0.1:<port> to it before the command starts, with the proxy variables set),
 * IPC and UTS. `--die-with-parent`
 * ends the sandbox when the host dies; no `--new-session` — the command has no terminal (stdin is
 * closed, its session is its own already), and staying in the runner's process group is what lets
 * Stop reach every process in it.
 */

export interface DeniedPath {
  readonly path: string;
  readonly kind: 'folder' | 'file';
}

export interface SandboxLayout {
  /** Host folder mounted as /tmp, private to this command. */
  readonly tmpDir: string;
  /** Package caches (existing folders), writable. */
  readonly caches: readonly string[];
  /** The workspace and, for a worktree, the parts of the repository's .git it writes (existing folders). */
  readonly writable: readonly string[];
  /** Hidden paths (existing). */
  readonly denied: readonly DeniedPath[];
  /** Inside denied folders, readable again (existing). */
  readonly readableAgain: readonly string[];
  /** Inside writable folders, read-only (existing). */
  readonly readOnly: readonly string[];
  /** Where the command starts. */
  readonly cwd: string;
  /** The host's filtering proxy for this command (no network at all without it). */
  readonly proxy?: {
    readonly socket: string;
    readonly socat: string;
    /** Loopback reached directly, not through the proxy (an agent's own local servers; loopback inside is the sandbox's own). */
    readonly loopbackDirect?: boolean;
    /**
     * Loopback endpoints outside (an agent's model server on this machine) served at the same address
     * inside: socat listens there and tunnels each connection through the proxy (CONNECT), which checks it.
     */
    readonly loopbackForwards?: readonly { readonly host: string; readonly port: number }[];
  };
}

/** Inside the sandbox: where the proxy's socket is, and the loopback port socat serves it on. */
export const PROXY_SOCKET_INSIDE = '/run/cairn-proxy.sock';
export const PROXY_PORT_INSIDE = 3128;

/**
 * Starts socat in the background, waits (at most about 5 s) until its port answers, runs the command,
 * then ends every socat in the namespace (the listener and its per-connection children, which linger
 * for socat's half-close timeout) and waits until they are gone, so the runner does not find the
 * bridge as something the command left running. Exits with the command's status.
 */
const bridge = (forwards: readonly { readonly host: string; readonly port: number }[]) =>
  [
    `"$0" TCP-LISTEN:${PROXY_PORT_INSIDE},bind=127.0.0.1,reuseaddr,fork UNIX-CONNECT:${PROXY_SOCKET_INSIDE} 2>/dev/null &`,
    'bridge=$!',
    ...forwards.map(
      ({ host, port }) =>
        `"$0" TCP-LISTEN:${port},bind=127.0.0.1,reuseaddr,fork PROXY:127.0.0.1:${host}:${port},proxyport=${PROXY_PORT_INSIDE} 2>/dev/null &`,
    ),
    ...[PROXY_PORT_INSIDE, ...forwards.map((forward) => forward.port)].map(
      (port) => `for _ in $(seq 500); do (: </dev/tcp/127.0.0.1/${port}) 2>/dev/null && break; sleep 0.01; done`,
    ),
    '"$@"',
    'status=$?',
    'kill -9 "$bridge" 2>/dev/null; wait "$bridge" 2>/dev/null',
    'for _ in $(seq 300); do',
    '  left=0',
    '  for p in /proc/[0-9]*; do read -r comm 2>/dev/null <"$p/comm" || continue; [ "$comm" = socat ] && { kill -9 "${p#/proc/}" 2>/dev/null; left=1; }; done',
    '  [ "$left" = 0 ] && break; sleep 0.01',
    'done',
    'exit "$status"',
  ].join('\n');
const LOOPBACK_NAME = /^(?:127(?:\.\d{1,3}){3}|localhost)$/;

/**
 * The proxy variables a sandboxed command gets: every spelling tools read, and nothing exempt — but
 * for an agent, loopback: inside its empty network namespace that is its own (OpenCode talks to the
 * server it starts in its own process there), never the machine's.
 */
export function proxyEnvironment(loopbackDirect = false): Record<string, string> {
  const url = `http://127.0.0.1:${PROXY_PORT_INSIDE}`;
  const exempt = loopbackDirect ? 'localhost,127.0.0.1,::1' : '';
  return {
    HTTP_PROXY: url,
    HTTPS_PROXY: url,
    http_proxy: url,
    https_proxy: url,
    ALL_PROXY: url,
    all_proxy: url,
    NO_PROXY: exempt,
    no_proxy: exempt,
  };
}

const inside = (path: string, folder: string) =>
  path === folder || path.startsWith(folder.endsWith('/') ? folder : `${folder}/`);

export function bwrapArgs(layout: SandboxLayout, command: readonly string[]): string[] {
  const args = [
    '--ro-bind',
    '/',
    '/',
    '--dev',
    '/dev',
    '--proc',
    '/proc',
    '--bind',
    layout.tmpDir,
    '/tmp',
    '--tmpfs',
    '/run',
  ];
  if (layout.proxy !== undefined) args.push('--bind', layout.proxy.socket, PROXY_SOCKET_INSIDE);
  for (const cache of layout.caches) args.push('--bind', cache, cache);
  const holdsWorkspace = (denied: DeniedPath) =>
    denied.kind === 'folder' && layout.writable.some((path) => inside(path, denied.path) && path !== denied.path);
  // An empty tmpfs over a folder; made read-only last, once what goes back inside it has its mount point.
  const hide = (denied: DeniedPath) =>
    denied.kind === 'folder' ? args.push('--tmpfs', denied.path) : args.push('--ro-bind', '/dev/null', denied.path);
  for (const denied of layout.denied) if (holdsWorkspace(denied)) hide(denied);
  for (const path of layout.writable) args.push('--bind', path, path);
  for (const denied of layout.denied) if (!holdsWorkspace(denied)) hide(denied);
  for (const path of layout.readableAgain) args.push('--ro-bind', path, path);
  for (const path of layout.readOnly) args.push('--ro-bind', path, path);
  for (const denied of layout.denied) if (denied.kind === 'folder') args.push('--remount-ro', denied.path);
  if (layout.proxy !== undefined)
    for (const [name, value] of Object.entries(proxyEnvironment(layout.proxy.loopbackDirect)))
      args.push('--setenv', name, value);
  args.push(
    '--chdir',
    layout.cwd,
    '--unshare-pid',
    '--unshare-net',
    '--unshare-ipc',
    '--unshare-uts',
    '--die-with-parent',
    '--',
  );
  if (layout.proxy === undefined) args.push(...command);
  else {
    const forwards = (layout.proxy.loopbackForwards ?? []).filter(
      (forward) =>
        LOOPBACK_NAME.test(forward.host) && Number.isInteger(forward.port) && forward.port !== PROXY_PORT_INSIDE,
    );
    args.push('bash', '-c', bridge(forwards), layout.proxy.socat, ...command);
  }
  return args;
}
