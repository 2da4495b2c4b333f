import type { SkillListResult, SkillSummary } from '../../src-shared/skill-model';
import type { SliceCreator } from './app-state';

/** The skills the composer's / menu offers per session, and starting a turn with one. */
export interface SkillsSlice {
  /** Per session, as last listed: the skills it can load, and those it cannot with the reason. */
  readonly skillMenus: Readonly<Record<string, SkillListResult>>;
  loadSkills(sessionId: string): Promise<void>;
  /**
   * Starts a turn with the skill loaded. The message is what the person wrote ("/release-notes since
   * v1.2"): the skill and what it should work on stay in the record, beside the skill's load_skill call.
   */
  startTurnWithSkill(sessionId: string, skill: SkillSummary, text: string): Promise<void>;
}

export const createSkillsSlice: SliceCreator<SkillsSlice> = (set, get, deps) => ({
  skillMenus: {},

  async loadSkills(sessionId) {
    const outcome = await deps.link.invoke('skill.list', { target: { kind: 'session', sessionId } });
    if (!outcome.ok) return;
    set((state) => ({ skillMenus: { ...state.skillMenus, [sessionId]: outcome.result } }));
  },

  async startTurnWithSkill(sessionId, skill, text) {
    const draft = get().readDraft(sessionId);
    get().setDraft(sessionId, '');
    const outcome = await deps.link.invoke('turn.start', { sessionId, turnId: deps.newId(), text, skillId: skill.id });
    if (!outcome.ok) {
      get().setDraft(sessionId, draft);
      get().reportFailure(outcome.error);
    }
  },
});
