/**
 * An ACP agent's command line and environment as a person types them: `program arg "arg with spaces"`
 * (double or single quotes group, a backslash escapes the next character), and one `NAME=value` a line.
 */

export type Parsed<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly problem: string };

export function parseCommandLine(text: string): Parsed<{ command: string; args: string[] }> {
  const words: string[] = [];
  let word: string | null = null;
  let quote: '"' | "'" | null = null;
  for (let index = 0; index < text.length; index += 1) {
    const char = text.charAt(index);
    if (quote !== null) {
      if (char === quote) quote = null;
      else if (char === '\\' && quote === '"' && index + 1 < text.length) word = (word ?? '') + text.charAt(++index);
      else word = (word ?? '') + char;
    } else if (char === '"' || char === "'") {
      quote = char;
      word ??= '';
    } else if (char === '\\' && index + 1 < text.length) {
      word = (word ?? '') + text.charAt(++index);
    } else if (/\s/.test(char)) {
      if (word !== null) words.push(word);
      word = null;
    } else {
      word = (word ?? '') + char;
    }
  }
  if (quote !== null) return { ok: false, problem: `Close the ${quote === '"' ? 'double' : 'single'} quote.` };
  if (word !== null) words.push(word);
  const [command, ...args] = words;
  if (command === undefined || command === '')
    return {
      ok: false,
      problem: 'Enter the command that starts the agent, for example /usr/local/bin/my-agent --acp.',
    };
  return { ok: true, value: { command, args } };
}

export function formatCommandLine(command: string, args: readonly string[]): string {
  return [command, ...args].map(quoted).join(' ');
}

function quoted(word: string): string {
  if (word !== '' && /^[\w@%+=:,./-]+$/.test(word)) return word;
  return `"${word.replace(/(["\\])/g, '\\$1')}"`;
}

export function parseEnvLines(text: string): Parsed<Record<string, string>> {
  const env: Record<string, string> = {};
  for (const [index, raw] of text.split('\n').entries()) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const equals = line.indexOf('=');
    const name = equals < 0 ? line : line.slice(0, equals).trim();
    if (equals < 0 || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(name))
      return { ok: false, problem: `Line ${index + 1}: write NAME=value (letters, digits and _ in the name).` };
    env[name] = line.slice(equals + 1);
  }
  return { ok: true, value: env };
}

export function formatEnvLines(env: Readonly<Record<string, string>>): string {
  return Object.entries(env)
    .map(([name, value]) => `${name}=${value}`)
    .join('\n');
}
