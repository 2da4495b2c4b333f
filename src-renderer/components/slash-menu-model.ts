import type { AcpCommand } from '../../src-shared/acp-model';
import type { McpPromptInfo } from '../../src-shared/mcp-model';
import type { OfflineDemoDirective } from '../../src-shared/offline-demo-directives';
import type { SkillListResult, SkillSummary, UnavailableSkill } from '../../src-shared/skill-model';
import { matchingPrompts } from './mcp/mcp-prompt-match';

/** One choice of the composer's / menu, in the order the menu shows them. */
export type SlashOption =
  | { readonly kind: 'skill'; readonly key: string; readonly skill: SkillSummary }
  | { readonly kind: 'prompt'; readonly key: string; readonly prompt: McpPromptInfo }
  /** A command of the session's ACP agent (`available_commands_update`): the agent runs it. */
  | { readonly kind: 'agent'; readonly key: string; readonly command: AcpCommand }
  | { readonly kind: 'directive'; readonly key: string; readonly example: string; readonly what: string };

/** What the MCP part of the menu knows: nothing asked (no server on), asking, the prompts, or why not. */
export type SlashPrompts =
  | { readonly state: 'off' }
  | { readonly state: 'loading' }
  | { readonly state: 'ready'; readonly prompts: readonly McpPromptInfo[] }
  | { readonly state: 'failed'; readonly message: string };

export interface SlashMenuEntries {
  /** What can be chosen: the agent's commands, skills, then MCP prompts, then the demo's directives. */
  readonly options: readonly SlashOption[];
  /** Skills that match but cannot be used here, shown greyed with the reason. */
  readonly unavailable: readonly UnavailableSkill[];
  readonly prompts: SlashPrompts;
}

/** The word after "/" while the draft is just that word (the menu is open); null otherwise. */
export function slashWord(draft: string): string | null {
  const match = /^\/(\S*)$/.exec(draft);
  return match === null ? null : (match[1] ?? '').toLowerCase();
}

export function slashMenuEntries(
  word: string,
  skills: SkillListResult | undefined,
  prompts: SlashPrompts,
  agentCommands: readonly AcpCommand[] = [],
  /** The demo's directives: only the Offline demo agent follows them (other agents would get them as text). */
  directives: readonly OfflineDemoDirective[] = [],
): SlashMenuEntries {
  const skillMatches = (id: string, name: string | null) =>
    id.toLowerCase().startsWith(word) || (name ?? '').toLowerCase().includes(word);
  const options: SlashOption[] = [
    ...agentCommands
      .filter((command) => command.name.toLowerCase().startsWith(word))
      .map((command): SlashOption => ({ kind: 'agent', key: `agent/${command.name}`, command })),
    ...(skills?.invocable ?? [])
      .filter((skill) => skillMatches(skill.id, skill.name))
      .map((skill): SlashOption => ({ kind: 'skill', key: `skill/${skill.id}`, skill })),
    ...(prompts.state === 'ready' ? matchingPrompts(prompts.prompts, word) : []).map((prompt): SlashOption => ({
      kind: 'prompt',
      key: `prompt/${prompt.serverId}/${prompt.name}`,
      prompt,
    })),
    ...directives
      .filter((directive) => directive.example.startsWith(`/${word}`))
      .map((directive): SlashOption => ({
        kind: 'directive',
        key: `directive/${directive.example}`,
        example: directive.example,
        what: directive.what,
      })),
  ];
  const unavailable = (skills?.unavailable ?? []).filter((skill) => skillMatches(skill.id, skill.name));
  return { options, unavailable, prompts };
}

/** Whether the menu has anything to show (a choice, a greyed skill, or the MCP servers' answer pending or failed). */
export function hasEntries(entries: SlashMenuEntries): boolean {
  return (
    entries.options.length > 0 ||
    entries.unavailable.length > 0 ||
    entries.prompts.state === 'loading' ||
    entries.prompts.state === 'failed'
  );
}

/**
 * The draft choosing the option leaves: a skill, or an agent's command that takes input, waits for
 * what it should work on; a directive is its example; an agent's command without input is itself.
 */
export function draftAfterChoosing(option: SlashOption): string | null {
  switch (option.kind) {
    case 'skill':
      return `/${option.skill.id} `;
    case 'agent':
      return option.command.hint === null ? `/${option.command.name}` : `/${option.command.name} `;
    case 'directive':
      return option.example;
    case 'prompt':
      // A prompt's text comes from its server (after its arguments, if any).
      return null;
  }
}

/**
 * A draft that invokes a skill: "/release-notes since v1.2" is the skill release-notes with the
 * argument "since v1.2". Only an exact id of a skill that can be used here counts.
 */
export function skillInvocation(
  draft: string,
  skills: readonly SkillSummary[] | undefined,
): { skill: SkillSummary; argument: string } | null {
  const match = /^\/(\S+)(?:\s+([\s\S]*))?$/.exec(draft.trim());
  if (match === null) return null;
  const skill = (skills ?? []).find((candidate) => candidate.id === match[1]);
  return skill === undefined ? null : { skill, argument: (match[2] ?? '').trim() };
}

/** Whether a lone "/word" is something the menu knows by that exact name (a demo directive, an MCP prompt, an agent's command). */
export function isKnownCommand(draft: string, entries: SlashMenuEntries): boolean {
  return entries.options.some((option) => {
    switch (option.kind) {
      case 'directive':
        return option.example === draft;
      case 'prompt':
        return `/${option.prompt.name}` === draft;
      case 'agent':
        return `/${option.command.name}` === draft;
      case 'skill':
        return `/${option.skill.id}` === draft;
    }
  });
}
