import { isAbsolute, join } from 'node:path';

/** Claude Code's names for Cairn's tools: what a matcher may name and what a hook reads as `tool_name`. */
const CLAUDE_NAMES: Readonly<Record<string, string>> = {
  run_shell: 'Bash',
  write_file: 'Write',
  edit_file: 'Edit',
  read_file: 'Read',
  glob: 'Glob',
  grep: 'Grep',
  list_files: 'LS',
  spawn_agent: 'Task',
};

/** The name a hook sees for a Cairn tool: Claude Code's where there is one, `mcp__<server>__<tool>` for an MCP tool. */
export function claudeToolName(cairnName: string, isMcp = false): string {
  if (isMcp) return `mcp__${cairnName}`;
  return CLAUDE_NAMES[cairnName] ?? cairnName;
}

/**
 * Whether a matcher matches a tool, as Claude Code's: empty or `*` matches every tool; otherwise a
 * regular expression that must match the whole name (`Edit|Write`, `mcp__github__.*`). It is tried on
 * the Claude Code name and on Cairn's own, so `Bash` and `run_shell` both match a shell command.
 */
export function matcherMatches(matcher: string, names: readonly string[]): boolean {
  if (matcher === '' || matcher === '*') return true;
  let pattern: RegExp;
  try {
    pattern = new RegExp(`^(?:${matcher})$`);
  } catch {
    return false;
  }
  return names.some((name) => pattern.test(name));
}

type Input = Readonly<Record<string, unknown>>;

/**
 * A Cairn tool's input in the shape Claude Code gives its hooks for the same tool (`file_path` as an
 * absolute path, `old_string`/`new_string`, …). Tools Claude Code does not have keep Cairn's shape.
 */
export function claudeToolInput(cairnName: string, input: unknown, workspace: string | null): Input {
  const given: Input = typeof input === 'object' && input !== null ? (input as Input) : {};
  const absolute = (path: unknown): string | undefined => {
    if (typeof path !== 'string') return undefined;
    if (workspace === null || isAbsolute(path)) return path;
    return join(workspace, path);
  };
  const defined = (entries: Record<string, unknown>): Input =>
    Object.fromEntries(Object.entries(entries).filter(([, value]) => value !== undefined));
  switch (cairnName) {
    case 'run_shell':
      return defined({
        command: given.command,
        timeout: typeof given.timeoutSeconds === 'number' ? given.timeoutSeconds * 1000 : undefined,
      });
    case 'write_file':
      return defined({ file_path: absolute(given.path), content: given.content });
    case 'edit_file':
      return defined({ file_path: absolute(given.path), old_string: given.search, new_string: given.replace });
    case 'read_file':
      return defined({
        file_path: absolute(given.path),
        offset: given.startLine,
        limit:
          typeof given.startLine === 'number' && typeof given.endLine === 'number'
            ? given.endLine - given.startLine + 1
            : undefined,
      });
    case 'glob':
      return defined({ pattern: given.pattern, path: absolute(given.path) });
    case 'grep':
      return defined({
        pattern: given.pattern,
        path: absolute(given.path),
        glob: given.glob,
        '-C': given.contextLines,
        '-i': given.caseSensitive === false ? true : undefined,
      });
    case 'list_files':
      return defined({ path: absolute(given.path ?? '.') });
    default:
      return given;
  }
}

/**
 * The input a hook's `updatedInput` (PreToolUse, PermissionRequest) asks for, back in Cairn's shape;
 * fields the hook left out keep their value.
 */
export function cairnToolInput(cairnName: string, updated: Input, original: unknown, workspace: string | null): Input {
  const base: Input = typeof original === 'object' && original !== null ? (original as Input) : {};
  const relative = (path: unknown): unknown => {
    if (typeof path !== 'string' || workspace === null) return path;
    return path.startsWith(`${workspace}/`) ? path.slice(workspace.length + 1) : path;
  };
  const pick = (entries: Record<string, unknown>) =>
    ({
      ...base,
      ...Object.fromEntries(Object.entries(entries).filter(([, value]) => value !== undefined)),
    }) as Input;
  switch (cairnName) {
    case 'run_shell':
      return pick({ command: updated.command });
    case 'write_file':
      return pick({ path: relative(updated.file_path), content: updated.content });
    case 'edit_file':
      return pick({ path: relative(updated.file_path), search: updated.old_string, replace: updated.new_string });
    default:
      return { ...base, ...updated };
  }
}
