import type { ReactNode } from 'react';
import type { SlashMenuState } from '../hooks/use-slash-menu';
import { Spinner } from './icons';
import { McpPromptArguments } from './mcp/McpPromptArguments';
import type { SlashOption } from './slash-menu-model';

/**
 * The composer's / menu (a listbox the message box controls): while the draft is a single word
 * starting with "/", the session's skills (choosing one leaves "/skill " for what it should work on;
 * those it cannot use are greyed with the reason), the prompts of its MCP servers, grouped by server
 * (choosing one puts its text in the draft, after asking for its arguments), and the Offline demo's
 * directives; in an ACP session, first the agent's own commands (marked as the agent's, with their
 * input hint; the agent runs them). Typing after the "/" filters all of them; the keys are in useSlashMenu.
 */
export function SlashMenu({ menu }: { menu: SlashMenuState }) {
  if (!menu.visible) return null;
  const { entries } = menu;
  if (menu.chosenPrompt !== null) {
    const prompt = menu.chosenPrompt;
    return (
      <div
        className="slash-menu"
        id={menu.listId}
        role="listbox"
        aria-label="Skills and directives, and MCP prompts"
        data-testid="slash-menu"
      >
        <McpPromptArguments
          key={`${prompt.serverId}/${prompt.name}`}
          prompt={prompt}
          busy={menu.promptBusy}
          notice={menu.promptNotice}
          onInsert={(values) => menu.insertPrompt(prompt, values)}
          onBack={menu.closePromptForm}
        />
      </div>
    );
  }

  const option = (entry: SlashOption, body: ReactNode) => {
    const index = entries.options.indexOf(entry);
    const active = index === menu.active;
    return (
      <div
        key={entry.key}
        id={menu.optionId(index)}
        role="option"
        aria-selected={active}
        data-active={active}
        className={`slash-menu-item${active ? ' is-active' : ''}`}
        // The message box keeps focus (and the typing): a click chooses without taking it.
        onMouseDown={(event) => event.preventDefault()}
        onMouseMove={() => (active ? undefined : menu.setActive(index))}
        onClick={() => menu.choose(entry)}
      >
        {body}
      </div>
    );
  };

  const agentCommands = entries.options.filter((entry) => entry.kind === 'agent');
  const skills = entries.options.filter((entry) => entry.kind === 'skill');
  const prompts = entries.options.flatMap((entry) => (entry.kind === 'prompt' ? [entry] : []));
  const directives = entries.options.filter((entry) => entry.kind === 'directive');
  const servers = [...new Set(prompts.map((entry) => entry.prompt.serverId))];
  return (
    <div
      className="slash-menu"
      id={menu.listId}
      role="listbox"
      aria-label="Skills and directives, and MCP prompts"
      data-testid="slash-menu"
    >
      {agentCommandGroup(menu.agentName, agentCommands, option)}
      {skills.length > 0 || entries.unavailable.length > 0 ? (
        <div className="slash-menu-heading" role="presentation">
          Skills
        </div>
      ) : null}
      {skills.map((entry) =>
        entry.kind === 'skill'
          ? option(
              entry,
              <>
                <code>/{entry.skill.id}</code>{' '}
                <span>
                  {entry.skill.name} — {entry.skill.description}
                </span>
              </>,
            )
          : null,
      )}
      {entries.unavailable.map((skill) => (
        <div
          key={`unavailable/${skill.id}`}
          role="option"
          aria-selected={false}
          aria-disabled="true"
          className="slash-menu-item is-unavailable"
          data-testid="slash-unavailable"
        >
          <code>/{skill.id}</code>{' '}
          <span>
            {skill.name ?? skill.id} — cannot be used: {skill.why.message}
          </span>
        </div>
      ))}
      {entries.prompts.state === 'loading' ? (
        <div className="slash-menu-heading" role="presentation">
          <Spinner label="Asking the MCP servers for their prompts" />
        </div>
      ) : entries.prompts.state === 'failed' ? (
        <p className="slash-menu-heading tone-error">{entries.prompts.message}</p>
      ) : null}
      {servers.map((serverId) => {
        const group = prompts.filter((entry) => entry.prompt.serverId === serverId);
        const serverName = group[0]?.prompt.serverName ?? '';
        return (
          <div key={serverId} role="group" aria-label={`Prompts of the MCP server ${serverName}`}>
            <div className="slash-menu-heading" role="presentation">
              MCP server {serverName}
            </div>
            {group.map((entry) =>
              option(
                entry,
                <>
                  <code>/{entry.prompt.name}</code>{' '}
                  <span>
                    {entry.prompt.title}
                    {entry.prompt.description === '' ? '' : ` — ${entry.prompt.description}`}
                  </span>
                </>,
              ),
            )}
          </div>
        );
      })}
      {menu.promptNotice === null ? null : (
        <p className="form-notice tone-error" role="alert">
          {menu.promptNotice}
        </p>
      )}
      {directives.length > 0 ? (
        <div className="slash-menu-heading" role="presentation">
          Offline demo
        </div>
      ) : null}
      {directives.map((entry) =>
        entry.kind === 'directive'
          ? option(
              entry,
              <>
                <code>{entry.example}</code> <span>{entry.what}</span>
              </>,
            )
          : null,
      )}
      <div className="slash-menu-hint" aria-hidden="true">
        ↑↓ to move · Enter or Tab to choose · Esc to close
      </div>
    </div>
  );
}

/** The session's ACP agent's own commands, under its name, each marked as the agent's with its input hint. */
function agentCommandGroup(
  agentName: string | null,
  commands: readonly SlashOption[],
  option: (entry: SlashOption, body: ReactNode) => ReactNode,
): ReactNode {
  if (commands.length === 0) return null;
  return (
    <>
      <div className="slash-menu-heading" role="presentation" data-testid="slash-agent-heading">
        {agentName === null ? 'The agent’s commands' : `${agentName}’s commands`}
      </div>
      {commands.map((entry) =>
        entry.kind === 'agent'
          ? option(
              entry,
              <>
                <code>/{entry.command.name}</code>{' '}
                <span>
                  {entry.command.description}
                  {entry.command.hint === null ? null : (
                    <em className="slash-menu-input-hint"> · {entry.command.hint}</em>
                  )}
                </span>
                <span className="tag slash-menu-agent-tag">agent</span>
              </>,
            )
          : null,
      )}
    </>
  );
}
