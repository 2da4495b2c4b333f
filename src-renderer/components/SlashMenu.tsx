import { useEffect } from 'react';
import { useAppStore, useStoreApi } from '../state/store-context';
import { DIRECTIVES } from './directives';

/**
 * The composer's / menu: while the draft is a single word starting with "/", the session's invocable
 * skills (choosing one starts the turn with it loaded) and the Offline demo's directives (choosing
 * one puts it in the draft).
 */
export function SlashMenu({ sessionId }: { sessionId: string }) {
  const store = useStoreApi();
  const draft = useAppStore((state) => state.drafts[sessionId] ?? '');
  const skills = useAppStore((state) => state.skillMenus[sessionId]);
  const open = /^\/\S*$/.test(draft);
  useEffect(() => {
    if (open) void store.getState().loadSkills(sessionId);
  }, [open, sessionId, store]);
  if (!open) return null;
  const word = draft.slice(1).toLowerCase();
  const matchingSkills = (skills ?? []).filter((skill) => skill.id.toLowerCase().startsWith(word) || skill.name.toLowerCase().includes(word));
  const directives = DIRECTIVES.filter((directive) => directive.example.startsWith(`/${word}`));
  if (matchingSkills.length === 0 && directives.length === 0) return null;
  const actions = store.getState();
  return (
    <div className="slash-menu" role="listbox" aria-label="Skills and directives">
      {matchingSkills.length > 0 ? <div className="slash-menu-heading">Skills</div> : null}
      {matchingSkills.map((skill) => (
        <button key={`skill-${skill.id}`} type="button" role="option" aria-selected="false" className="slash-menu-item" onClick={() => void actions.startTurnWithSkill(sessionId, skill)}>
          <code>/{skill.id}</code> <span>{skill.name} — {skill.description}</span>
        </button>
      ))}
      {directives.length > 0 ? <div className="slash-menu-heading">Offline demo</div> : null}
      {directives.map((directive) => (
        <button key={directive.example} type="button" role="option" aria-selected="false" className="slash-menu-item" onClick={() => actions.setDraft(sessionId, directive.example)}>
          <code>{directive.example}</code> <span>{directive.what}</span>
        </button>
      ))}
    </div>
  );
}
