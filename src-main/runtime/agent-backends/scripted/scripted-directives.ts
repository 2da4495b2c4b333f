/**
 * The scripted agent's directives: the first word of the person's message decides what it does. What
 * the UI offers of them is src-shared/offline-demo-directives.ts (held to this parser by its test).
 */
export type ScriptedDirective =
  | { readonly kind: 'reply'; readonly text: string }
  | { readonly kind: 'stream'; readonly chunks: number; readonly intervalMs: number; readonly markdown: boolean }
  | { readonly kind: 'hold' }
  | { readonly kind: 'fail'; readonly code: string; readonly message: string }
  | { readonly kind: 'steps'; readonly steps: number }
  | { readonly kind: 'ask' | 'ask_secret' | 'form' }
  | { readonly kind: 'tool'; readonly toolName: string; readonly input: unknown }
  | { readonly kind: 'tools'; readonly calls: readonly { readonly toolName: string; readonly input: unknown }[] }
  | { readonly kind: 'bad_directive'; readonly message: string }
  | {
      readonly kind: 'goal';
      readonly objective: string;
      readonly tokenBudget: number | null;
      readonly maxIterations: number | null;
    }
  | { readonly kind: 'spawn'; readonly agent: string; readonly tasks: readonly string[]; readonly wait: boolean };

const MAX_CHUNKS = 100_000;

export function parseDirective(text: string): ScriptedDirective {
  const trimmed = text.trim();
  const [word = '', ...rest] = trimmed.split(/\s+/);
  switch (word) {
    case '/stream': {
      const chunks = clampInt(rest[0], 10, 1, MAX_CHUNKS);
      const intervalMs = clampInt(rest[1], 20, 0, 60_000);
      return { kind: 'stream', chunks, intervalMs, markdown: rest[2] === 'markdown' };
    }
    case '/hold':
      return { kind: 'hold' };
    case '/fail': {
      const code = rest[0] !== undefined && /^[a-z][a-z0-9_]{0,39}$/.test(rest[0]) ? rest[0] : 'server_error';
      const message = rest.slice(1).join(' ') || 'The scripted provider failed on request';
      return { kind: 'fail', code, message };
    }
    case '/steps':
      return { kind: 'steps', steps: clampInt(rest[0], 3, 1, 1000) };
    case '/ask':
      return { kind: 'ask' };
    case '/ask-secret':
      return { kind: 'ask_secret' };
    case '/form':
      return { kind: 'form' };
    case '/goal': {
      let objective = trimmed.slice('/goal'.length).trim();
      const take = (name: string): number | null => {
        const match =
          new RegExp(`\\b${name}\\s+(\\d+)\\s*$`).exec(objective) ??
          new RegExp(`\\b${name}\\s+(\\d+)\\b`).exec(objective);
        if (match === null) return null;
        objective = (objective.slice(0, match.index) + objective.slice(match.index + match[0].length)).trim();
        return Number(match[1]);
      };
      const maxIterations = take('iterations');
      const tokenBudget = take('budget');
      if (objective === '')
        return { kind: 'bad_directive', message: 'Usage: /goal OBJECTIVE [budget N] [iterations N]' };
      return { kind: 'goal', objective, tokenBudget, maxIterations };
    }
    case '/remember': {
      const global = rest[0] === 'global';
      const memory = (global ? rest.slice(1) : rest).join(' ');
      if (memory === '') return { kind: 'bad_directive', message: 'Usage: /remember [global] TEXT' };
      return { kind: 'tool', toolName: 'remember', input: { text: memory, scope: global ? 'global' : 'workspace' } };
    }
    case '/recall': {
      if (rest.length === 0) return { kind: 'bad_directive', message: 'Usage: /recall QUERY' };
      return { kind: 'tool', toolName: 'recall', input: { query: rest.join(' ') } };
    }
    case '/skill': {
      if (rest[0] === undefined) return { kind: 'bad_directive', message: 'Usage: /skill ID' };
      return { kind: 'tool', toolName: 'load_skill', input: { id: rest[0] } };
    }
    case '/spawn':
    case '/spawn-many':
      return parseSpawn(word, trimmed.slice(word.length).trim());
    case '/tool': {
      const toolName = rest[0];
      if (toolName === undefined) return { kind: 'bad_directive', message: 'Usage: /tool NAME JSON' };
      const json = trimmed.slice(trimmed.indexOf(toolName) + toolName.length).trim() || '{}';
      try {
        return { kind: 'tool', toolName, input: JSON.parse(json) as unknown };
      } catch {
        return { kind: 'bad_directive', message: `The input of /tool must be JSON; got: ${json}` };
      }
    }
    case '/tools':
      return parseToolCalls(trimmed.slice('/tools'.length).trim());
    default:
      return { kind: 'reply', text: trimmed };
  }
}

/** `/tools [["write_file", {...}], ["run_shell", {...}]]`: several tool calls in one turn. */
function parseToolCalls(json: string): ScriptedDirective {
  const usage = { kind: 'bad_directive', message: 'Usage: /tools [["NAME", {INPUT}], …]' } as const;
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    return usage;
  }
  if (!Array.isArray(parsed) || parsed.length === 0) return usage;
  const calls: { toolName: string; input: unknown }[] = [];
  for (const call of parsed as unknown[]) {
    if (!Array.isArray(call) || typeof call[0] !== 'string') return usage;
    calls.push({ toolName: call[0], input: (call as unknown[])[1] ?? {} });
  }
  return { kind: 'tools', calls };
}

function clampInt(raw: string | undefined, fallback: number, min: number, max: number): number {
  const value = raw === undefined ? NaN : Number.parseInt(raw, 10);
  if (!Number.isFinite(value)) return fallback;
  return Math.min(max, Math.max(min, value));
}

/** The text of chunk `index` (1-based) of a `/stream`; resume counts these to carry on. */
export function streamChunk(index: number, total: number, markdown = false): string {
  if (!markdown) return `chunk ${index}/${total}${index === total ? '.' : ' '}`;
  return markdownStreamChunk(index, total);
}

/**
 * Chunk `index` of a Markdown `/stream`: cycles of a heading, a paragraph with bold and inline code,
 * and a TypeScript code block; every chunk names itself (`chunk I/N`) as the plain stream's do.
 */
function markdownStreamChunk(index: number, total: number): string {
  const name = `chunk ${index}/${total}`;
  const step = (index - 1) % 20;
  const last = index === total;
  if (step === 0) return `${index === 1 ? '' : '\n\n'}### Part ${(index - 1) / 20 + 1}\n\nA **bold** start, ${name}, `;
  if (step < 10) return `then \`${name}\` and more${last ? '.' : ', '}`;
  if (step === 10) return `done.\n\n\`\`\`ts\n// ${name}\n${last ? '```' : ''}`;
  if (step < 19) return `const value${index} = '${name}';\n${last ? '```' : ''}`;
  return `// ${name}\n\`\`\``;
}

/** How many `/stream` chunks the text already holds. */
export function countStreamChunks(text: string, total: number): number {
  const pattern = new RegExp(`chunk (\\d+)/${total}\\b`, 'g');
  let highest = 0;
  for (const match of text.matchAll(pattern)) highest = Math.max(highest, Number(match[1]));
  return highest;
}

const SPAWN_USAGE = 'Usage: /spawn AGENT "TASK" [wait], or /spawn-many N [AGENT] ["TASK"] [wait]';
const DEFAULT_CHILD_TASK = '/stream 12 40';

/** `/spawn explore "task" [wait]` and `/spawn-many N [agent] ["task"] [wait]`; the task is a JSON string. */
function parseSpawn(word: string, rest: string): ScriptedDirective {
  let count = 1;
  if (word === '/spawn-many') {
    const match = /^(\d+)\s*/.exec(rest);
    if (match === null) return { kind: 'bad_directive', message: SPAWN_USAGE };
    count = Math.min(32, Math.max(1, Number(match[1])));
    rest = rest.slice(match[0].length);
  }
  const agentMatch = /^(?!wait\s*$)([a-z0-9][a-z0-9_-]*)\s*/.exec(rest);
  const agent = agentMatch?.[1] ?? (word === '/spawn-many' ? 'worker' : null);
  if (agent === null) return { kind: 'bad_directive', message: SPAWN_USAGE };
  rest = rest.slice(agentMatch?.[0].length ?? 0);
  let task = word === '/spawn-many' ? DEFAULT_CHILD_TASK : null;
  if (rest.startsWith('"')) {
    const end = closingQuote(rest);
    if (end === -1) return { kind: 'bad_directive', message: SPAWN_USAGE };
    try {
      task = JSON.parse(rest.slice(0, end + 1)) as string;
    } catch {
      return { kind: 'bad_directive', message: SPAWN_USAGE };
    }
    rest = rest.slice(end + 1).trim();
  }
  if (task === null || task.trim() === '') return { kind: 'bad_directive', message: SPAWN_USAGE };
  if (rest !== '' && rest !== 'wait') return { kind: 'bad_directive', message: SPAWN_USAGE };
  return { kind: 'spawn', agent, tasks: Array.from({ length: count }, () => task), wait: rest === 'wait' };
}

function closingQuote(text: string): number {
  for (let index = 1; index < text.length; index += 1) {
    if (text[index] === '\\') index += 1;
    else if (text[index] === '"') return index;
  }
  return -1;
}
