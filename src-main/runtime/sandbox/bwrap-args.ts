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
 * init), network (none at all unless a proxy socket is bound in), IPC and UTS. `--die-with-parent`
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
}

const inside = (path: string, folder: string) => path === folder || path.startsWith(folder.endsWith('/') ? folder : `${folder}/`);

export function bwrapArgs(layout: SandboxLayout, command: readonly string[]): string[] {
  const args = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--bind', layout.tmpDir, '/tmp', '--tmpfs', '/run'];
  for (const cache of layout.caches) args.push('--bind', cache, cache);
  const holdsWorkspace = (denied: DeniedPath) => denied.kind === 'folder' && layout.writable.some((path) => inside(path, denied.path) && path !== denied.path);
  // An empty tmpfs over a folder; made read-only last, once what goes back inside it has its mount point.
  const hide = (denied: DeniedPath) => (denied.kind === 'folder' ? args.push('--tmpfs', denied.path) : args.push('--ro-bind', '/dev/null', denied.path));
  for (const denied of layout.denied) if (holdsWorkspace(denied)) hide(denied);
  for (const path of layout.writable) args.push('--bind', path, path);
  for (const denied of layout.denied) if (!holdsWorkspace(denied)) hide(denied);
  for (const path of layout.readableAgain) args.push('--ro-bind', path, path);
  for (const path of layout.readOnly) args.push('--ro-bind', path, path);
  for (const denied of layout.denied) if (denied.kind === 'folder') args.push('--remount-ro', denied.path);
  args.push('--chdir', layout.cwd, '--unshare-pid', '--unshare-net', '--unshare-ipc', '--unshare-uts', '--die-with-parent', '--', ...command);
  return args;
}
