import type { SkillSummary } from '../../src-shared/skill-model';
import type { SliceCreator } from './app-state';

/** The skills the composer's / menu offers per session, and starting a turn with one. */
export interface SkillsSlice {
  /** Invocable skills per session, as last listed. */
  readonly skillMenus: Readonly<Record<string, readonly SkillSummary[]>>;
  loadSkills(sessionId: string): Promise<void>;
  /** Starts a turn with the skill loaded; the draft (without its leading /word) is the message. */
  startTurnWithSkill(sessionId: string, skill: SkillSummary): Promise<void>;
}

export const createSkillsSlice: SliceCreator<SkillsSlice> = (set, get, deps) => ({
  skillMenus: {},

  async loadSkills(sessionId) {
    const outcome = await deps.link.invoke('skill.list', { target: { kind: 'session', sessionId } });
    if (!outcome.ok) return;
    set((state) => ({ skillMenus: { ...state.skillMenus, [sessionId]: outcome.result.invocable } }));
  },

  async startTurnWithSkill(sessionId, skill) {
    const draft = (get().drafts[sessionId] ?? '').replace(/^\/\S*\s*/, '').trim();
    const text = draft === '' ? `Use the skill “${skill.name}”.` : draft;
    get().setDraft(sessionId, '');
    const outcome = await deps.link.invoke('turn.start', { sessionId, turnId: deps.newId(), text, skillId: skill.id });
    if (!outcome.ok) {
      get().setDraft(sessionId, draft);
      get().reportFailure(outcome.error);
    }
  },
});
