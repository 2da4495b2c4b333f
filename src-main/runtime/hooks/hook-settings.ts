import { z } from 'zod';
import { HOOK_EVENTS, type HookEventName } from '../contract/hook-run';
import { jsonErrorOffset } from './json-error-position';

export { HOOK_EVENTS, type HookEventName };

/** Events whose matcher is tested against a tool name (the others ignore it, or match a source/trigger). */
export const TOOL_EVENTS: ReadonlySet<HookEventName> = new Set(['PreToolUse', 'PermissionRequest', 'PostToolUse']);

export const DEFAULT_HOOK_TIMEOUT_SECONDS = 60;

const commandHook = z.object({
  type: z.literal('command'),
  command: z.string().trim().min(1, 'a command hook needs a non-empty "command"'),
  /** Seconds; Claude Code's default is 60. */
  timeout: z.number().positive().max(3600).optional(),
  /** Cairn's addition: what a crash or a timeout does — `continue` (the default, as Claude Code) or `fail` the turn. */
  onError: z.enum(['continue', 'fail']).optional(),
});

const matcherGroup = z.object({
  matcher: z.string().optional(),
  hooks: z.array(z.unknown()),
});

const settingsFile = z.object({ hooks: z.record(z.string(), z.array(matcherGroup)).optional() });

/** One hook command as written in a settings file, with where it came from. */
export interface HookDefinition {
  readonly event: HookEventName;
  /** As written; '' (or absent, or '*') matches everything. */
  readonly matcher: string;
  readonly command: string;
  readonly timeoutSeconds: number;
  readonly onError: 'continue' | 'fail';
  /** Its position in the file: event, group and hook index, e.g. `PreToolUse[0].hooks[1]`. */
  readonly place: string;
}

export type ParsedHookFile =
  | { readonly ok: true; readonly hooks: readonly HookDefinition[]; readonly skipped: readonly string[] }
  | { readonly ok: false; readonly error: string };

/**
 * Reads one settings file's `hooks` in Claude Code's format. A file that is not JSON, or whose
 * `hooks` do not have the format, is refused whole with a message naming the file and the line (no
 * hook from it runs). Events and hook types Cairn does not run (Claude Code's `prompt` hooks, events
 * it has and Cairn does not) are listed in `skipped`, not an error: the file stays usable.
 */
export function parseHookFile(path: string, text: string): ParsedHookFile {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { ok: false, error: `${path}: not valid JSON at ${positionOf(text)}: ${reasonOf(message)}` };
  }
  const parsed = settingsFile.safeParse(json);
  if (!parsed.success) return { ok: false, error: `${path}: ${describeIssue(text, parsed.error.issues[0])}` };
  const hooks: HookDefinition[] = [];
  const skipped: string[] = [];
  for (const [event, groups] of Object.entries(parsed.data.hooks ?? {})) {
    if (!(HOOK_EVENTS as readonly string[]).includes(event)) {
      skipped.push(`${event}: an event Cairn does not fire`);
      continue;
    }
    for (const [groupIndex, group] of groups.entries()) {
      const matcher = group.matcher ?? '';
      const invalid = matcherError(matcher);
      if (invalid !== null)
        return {
          ok: false,
          error: `${path}: ${lineNote(text, matcher)}hooks.${event}[${groupIndex}].matcher: ${invalid}`,
        };
      for (const [hookIndex, raw] of group.hooks.entries()) {
        const place = `${event}[${groupIndex}].hooks[${hookIndex}]`;
        const type = typeof raw === 'object' && raw !== null ? (raw as { type?: unknown }).type : undefined;
        if (type !== 'command' && typeof type === 'string') {
          skipped.push(`${place}: hooks of type "${type}" are not run by Cairn`);
          continue;
        }
        const hook = commandHook.safeParse(raw);
        if (!hook.success) {
          const issue = hook.error.issues[0];
          const field = issue?.path.join('.') ?? '';
          const near =
            typeof raw === 'object' && raw !== null
              ? lineNote(text, JSON.stringify((raw as { command?: unknown }).command ?? ''))
              : '';
          return {
            ok: false,
            error: `${path}: ${near}hooks.${place}${field === '' ? '' : `.${field}`}: ${issue?.message ?? 'invalid'}`,
          };
        }
        hooks.push({
          event: event as HookEventName,
          matcher,
          command: hook.data.command,
          timeoutSeconds: hook.data.timeout ?? DEFAULT_HOOK_TIMEOUT_SECONDS,
          onError: hook.data.onError ?? 'continue',
          place,
        });
      }
    }
  }
  return { ok: true, hooks, skipped };
}

/** A matcher Claude Code would accept: a name, names joined by `|`, or a regular expression. */
function matcherError(matcher: string): string | null {
  try {
    new RegExp(matcher);
    return null;
  } catch (error) {
    return `not a valid regular expression (${error instanceof Error ? error.message : String(error)})`;
  }
}

/** "line L, column C" of where the text stops being JSON. */
function positionOf(text: string): string {
  const offset = jsonErrorOffset(text) ?? text.length;
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  const column = offset - before.lastIndexOf('\n');
  return `line ${line}, column ${column}`;
}

/** Node's message, without its own position or its quote of the text. */
function reasonOf(message: string): string {
  return message.split(/,? in JSON at position|, "|\s*\(line \d+/)[0] ?? message;
}

/** "line N: " where a value first appears in the file's text, to point at the offending entry. */
function lineNote(text: string, needle: string): string {
  const index = needle === '' || needle === '""' ? -1 : text.indexOf(needle);
  return index < 0 ? '' : `line ${text.slice(0, index).split('\n').length}: `;
}

function describeIssue(text: string, issue: z.core.$ZodIssue | undefined): string {
  if (issue === undefined) return 'not a settings file';
  const path = issue.path.map(String);
  const key = path.at(-1);
  const note =
    key === undefined ? '' : lineNote(text, `"${path.find((part) => !/^\d+$/.test(part) && part !== 'hooks') ?? key}"`);
  return `${note}${path.join('.') || 'the file'}: ${issue.message}`;
}
