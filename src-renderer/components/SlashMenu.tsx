import { useEffect } from 'react';
import { useAppStore, useStoreApi } from '../state/store-context';
import { DIRECTIVES } from './directives';
import { matchingPrompts, McpSlashPrompts, useMcpServersEnabled } from './mcp/McpSlashPrompts';

/**
 * The composer's / menu: while the draft is a single word starting with "/", the session's invocable
 * skills (choosing one starts the turn with it loaded), the prompts of its MCP servers, grouped by
 * server (choosing one puts its text in the draft), and the Offline demo's directives (choosing one
 * puts it in the draft). Typing after the "/" filters all three.
 */
export function SlashMenu({ sessionId }: { sessionId: string }) {
  const store = useStoreApi();
  const draft = useAppStore((state) => state.drafts[sessionId] ?? '');
  const skills = useAppStore((state) => state.skillMenus[sessionId]);
  const catalog = useAppStore((state) => state.mcpCatalogs[sessionId]);
  const open = /^\/\S*$/.test(draft);
  const mcp = useMcpServersEnabled(open);
  useEffect(() => {
    if (open) void store.getState().loadSkills(sessionId);
  }, [open, sessionId, store]);
  useEffect(() => {
    if (open && mcp) void store.getState().loadMcpCatalog(sessionId);
  }, [open, mcp, sessionId, store]);
  if (!open) return null;
  const word = draft.slice(1).toLowerCase();
  const matchingSkills = (skills ?? []).filter((skill) => skill.id.toLowerCase().startsWith(word) || skill.name.toLowerCase().includes(word));
  const directives = DIRECTIVES.filter((directive) => directive.example.startsWith(`/${word}`));
  // While the servers are asked, the menu stays open for their answer; once known, only matches count.
  const prompts = mcp && (catalog?.state !== 'ready' || matchingPrompts(catalog.prompts, word).length > 0);
  if (matchingSkills.length === 0 && directives.length === 0 && !prompts) return null;
  const actions = store.getState();
  return (
    <div className="slash-menu" role="listbox" aria-label="Skills and directives, and MCP prompts">
      {matchingSkills.length > 0 ? <div className="slash-menu-heading">Skills</div> : null}
      {matchingSkills.map((skill) => (
        <button key={`skill-${skill.id}`} type="button" role="option" aria-selected="false" className="slash-menu-item" onClick={() => void actions.startTurnWithSkill(sessionId, skill)}>
          <code>/{skill.id}</code> <span>{skill.name} — {skill.description}</span>
        </button>
      ))}
      {prompts ? <McpSlashPrompts sessionId={sessionId} word={word} /> : null}
      {directives.length > 0 ? <div className="slash-menu-heading">Offline demo</div> : null}
      {directives.map((directive) => (
        <button key={directive.example} type="button" role="option" aria-selected="false" className="slash-menu-item" onClick={() => actions.setDraft(sessionId, directive.example)}>
          <code>{directive.example}</code> <span>{directive.what}</span>
        </button>
      ))}
    </div>
  );
}
