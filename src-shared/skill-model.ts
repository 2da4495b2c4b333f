/** Where a skill's folder is: the session's workspace (`.agents/skills/`) or the person's own (`<data dir>/skills/`). */
export type SkillSource = 'workspace' | 'personal';

/** A skill the agent can load in the target: its id is its folder's name. */
export interface SkillSummary {
  readonly id: string;
  readonly name: string;
  readonly description: string;
  readonly source: SkillSource;
  readonly requiredTools: readonly string[];
}

/** Why a skill cannot be loaded in the target, for a person to read. */
export type SkillUnavailability =
  | { readonly reason: 'missing_tools'; readonly missingTools: readonly string[]; readonly message: string }
  | { readonly reason: 'broken'; readonly message: string }
  | { readonly reason: 'connection'; readonly message: string };

/** A skill found in the catalog that cannot be loaded in the target (name and description are null when its file is broken). */
export interface UnavailableSkill {
  readonly id: string;
  readonly source: SkillSource;
  readonly name: string | null;
  readonly description: string | null;
  readonly why: SkillUnavailability;
}

export interface SkillListResult {
  /** Sorted by id. */
  readonly invocable: readonly SkillSummary[];
  /** Sorted by id. */
  readonly unavailable: readonly UnavailableSkill[];
}

/** The built-in agent's tool that loads a skill's full text. */
export const LOAD_SKILL_TOOL_NAME = 'load_skill';
