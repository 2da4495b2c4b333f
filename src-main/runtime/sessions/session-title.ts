import type { BranchMode } from '../../../src-shared/branch-model';

export const DEFAULT_SESSION_TITLE = 'New session';
const MAX_AUTO_TITLE = 60;

/**
 * A title from the first user message: its first line, whitespace collapsed, cut at a word. A
 * directive (`/tool read_file {...}`, `/stream 30 40`) never becomes a title as typed: it is named
 * by what it does, with any words after its arguments.
 */
export function titleFromMessage(text: string): string | null {
  const typed = text
    .split('\n')
    .map((line) => line.replace(/\s+/g, ' ').trim())
    .find((line) => line !== '');
  if (typed === undefined) return null;
  const firstLine = directiveTitle(typed) ?? typed;
  if (firstLine.length <= MAX_AUTO_TITLE) return firstLine;
  const cut = firstLine.slice(0, MAX_AUTO_TITLE);
  const lastSpace = cut.lastIndexOf(' ');
  return `${(lastSpace > 30 ? cut.slice(0, lastSpace) : cut).trimEnd()}…`;
}

/** What a directive line is titled: "Tool call: read_file", the words after its arguments, or "Offline demo: stream". */
function directiveTitle(line: string): string | null {
  const parts = directiveParts(line);
  if (parts === null) return null;
  if (parts.name === 'tool') return parts.tool === null ? 'Tool call' : `Tool call: ${parts.tool}`;
  // `/fail CODE message`: its words are the failure it stages, not what the session is about.
  if (parts.name === 'fail') return parts.code === null ? 'Offline demo: fail' : `Offline demo: fail (${parts.code})`;
  if (parts.name === 'spawn' || parts.name === 'spawn-many')
    return parts.agent === null ? 'Offline demo: subagents' : `Offline demo: ${parts.agent} subagents`;
  return parts.words ?? `Offline demo: ${parts.name}`;
}

interface DirectiveParts {
  readonly name: string;
  /** The plain words after its arguments, or null when there are none (or they hold quotes or another directive). */
  readonly words: string | null;
  /** `/tool NAME`: the tool's name. */
  readonly tool: string | null;
  /** `/spawn AGENT` and `/spawn-many N AGENT`: the agent's name. */
  readonly agent: string | null;
  /** `/fail CODE …`: the error code. */
  readonly code: string | null;
}

function directiveParts(line: string): DirectiveParts | null {
  const match = /^\/([a-z][a-z-]*)\b\s*(.*)$/i.exec(line);
  if (match === null) return null;
  const name = (match[1] ?? '').toLowerCase();
  const rest = match[2] ?? '';
  const words = rest
    .replace(/[{[].*$/, '')
    .replace(/^(\s*-?\d+(\.\d+)?\b)+/, '')
    .trim();
  const plain = words !== '' && !/["'“”]|(^|\s)\//.test(words);
  return {
    name,
    words: plain && name !== 'spawn' && name !== 'spawn-many' ? words : null,
    tool: name === 'tool' ? (/^([A-Za-z0-9_.:-]+)/.exec(rest)?.[1] ?? null) : null,
    agent: name === 'spawn' || name === 'spawn-many' ? (/^(?:\d+\s+)?([A-Za-z][\w-]*)/.exec(rest)?.[1] ?? null) : null,
    code: name === 'fail' ? (/^([a-z_]+)\b/i.exec(rest)?.[1] ?? null) : null,
  };
}

/**
 * What a turn started with a skill hints its session's title: the skill's name, then the words the
 * person added ("Release notes: since v1.2"), so the title says which skill did the work.
 */
export function skillTitleHint(skillName: string, text: string): string {
  const words = text.replace(/\s+/g, ' ').trim();
  return words === '' ? skillName : `${skillName}: ${words}`;
}

const BRANCH_SUFFIX = / \((?:branch|rewound)\)$/;

/** A branch's title: its source's, with one " (branch)" or " (rewound)" at the end — never a pile of them. */
export function branchTitle(sourceTitle: string, mode: BranchMode): string {
  let base = sourceTitle.trimEnd();
  while (BRANCH_SUFFIX.test(base)) base = base.replace(BRANCH_SUFFIX, '').trimEnd();
  const suffix = mode === 'rewind' ? ' (rewound)' : ' (branch)';
  const title = `${base}${suffix}`;
  return title.length > 200 ? `${base.slice(0, 190)}…${suffix}` : title;
}

const MAX_CHILD_TASK = 40;

/**
 * A child agent's session title: its agent and a short task ("Worker: Survey the docs"), with an
 * ordinal when a sibling already has that title ("Worker: hold (2)"). A directive task is named by
 * what it does ("hold", the words after its arguments), never as typed.
 */
export function childSessionTitle(agentName: string, task: string, siblingTitles: readonly string[]): string {
  const base = `${agentName}: ${shortTask(task)}`;
  if (!siblingTitles.includes(base)) return base;
  let ordinal = 2;
  while (siblingTitles.includes(`${base} (${ordinal})`)) ordinal += 1;
  return `${base} (${ordinal})`;
}

function shortTask(task: string): string {
  const typed =
    task
      .split('\n')
      .map((line) => line.replace(/\s+/g, ' ').trim())
      .find((line) => line !== '') ?? '';
  const parts = directiveParts(typed);
  const text = parts === null ? typed : (parts.words ?? parts.tool ?? parts.name);
  if (text === '') return 'task';
  if (text.length <= MAX_CHILD_TASK) return text;
  const cut = text.slice(0, MAX_CHILD_TASK);
  const space = cut.lastIndexOf(' ');
  return `${(space > 20 ? cut.slice(0, space) : cut).trimEnd()}…`;
}
