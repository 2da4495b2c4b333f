import type { McpPromptInfo } from '../../../src-shared/mcp-model';

/** The prompts that match what follows the "/": by name, title or server. */
export function matchingPrompts(prompts: readonly McpPromptInfo[], word: string): McpPromptInfo[] {
  const needle = word.toLowerCase();
  return prompts.filter(
    (prompt) =>
      prompt.name.toLowerCase().startsWith(needle) ||
      prompt.title.toLowerCase().includes(needle) ||
      prompt.serverName.toLowerCase().includes(needle),
  );
}
