import type { SlashMenuState } from '../hooks/use-slash-menu';

/** Asked when Enter would send a lone "/word" that is no skill, prompt or directive: send it as text, or keep editing. */
export function UnknownCommandQuestion({ menu }: { menu: SlashMenuState }) {
  if (menu.unknownCommand === null) return null;
  return (
    <div className="slash-unknown" role="alert" data-testid="slash-unknown">
      <p>
        <code>{menu.unknownCommand}</code> is not a skill, MCP prompt or demo directive here. Send it to the agent as a
        message?
      </p>
      <button type="button" className="button button-small button-quiet" onClick={menu.cancelUnknown}>
        Keep editing
      </button>
      <button type="button" className="button button-small button-primary" onClick={menu.confirmUnknown}>
        Send as text
      </button>
    </div>
  );
}
