import { parse as parseYaml } from 'yaml';
import { z } from 'zod';

/** What an agent file's front matter may say; unknown keys are a mistake worth reporting. */
const frontMatterSchema = z.strictObject({
  name: z.string().trim().min(1).max(80),
  description: z.string().trim().min(1).max(1000),
  tools: z
    .array(z.string().regex(/^[a-z][a-z0-9_]{0,63}$/, 'a tool name is lower_snake_case'))
    .max(100)
    .optional(),
  model: z.string().trim().min(1).max(200).optional(),
});

export interface ParsedAgentFile {
  readonly name: string;
  readonly description: string;
  readonly tools: readonly string[] | null;
  readonly model: string | null;
  /** The body after the front matter: the agent's system prompt. */
  readonly systemPrompt: string;
}

/**
 * Reads `.agents/agents/<id>.md`: YAML front matter between `---` lines (name, description, tools,
 * model), then the system prompt. Returns the reason in words when the file is not a valid agent.
 */
export function parseAgentFile(text: string): ParsedAgentFile | { readonly error: string } {
  const match = /^\uFEFF?---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/.exec(text);
  if (match === null) return { error: 'The file does not start with front matter between two "---" lines.' };
  let data: unknown;
  try {
    data = parseYaml(match[1] ?? '');
  } catch (error) {
    return {
      error: `The front matter is not valid YAML: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`,
    };
  }
  const parsed = frontMatterSchema.safeParse(data ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue === undefined || issue.path.length === 0 ? 'front matter' : `"${issue.path.join('.')}"`;
    return { error: `The ${where} is not valid: ${issue?.message ?? 'unknown problem'}.` };
  }
  const systemPrompt = (match[2] ?? '').trim();
  if (systemPrompt === '') return { error: 'The file has no instructions after its front matter.' };
  return {
    name: parsed.data.name,
    description: parsed.data.description,
    tools: parsed.data.tools ?? null,
    model: parsed.data.model ?? null,
    systemPrompt,
  };
}
