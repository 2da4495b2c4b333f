import type { AvailableCommand, SessionConfigOption, SessionModeState } from '@agentclientprotocol/sdk';
import type { AcpCommand, AcpSelector } from '../../../../src-shared/acp-model';

/** What an agent offers in its session, in Cairn's terms: its commands, and its mode and config options as selectors. */

/** The selector id of the agent's session modes (`session/set_mode`). */
export const ACP_MODE_SELECTOR = 'mode';

const MAX_COMMANDS = 200;
const MAX_CHOICES = 200;
const clip = (text: string, length: number) => text.slice(0, length);

/** `available_commands_update` → the commands the `/` menu shows (bounded: the list comes from the agent). */
export function commandsOf(available: readonly AvailableCommand[]): AcpCommand[] {
  return available.slice(0, MAX_COMMANDS).map((command) => ({
    name: clip(command.name, 100),
    description: clip(command.description, 500),
    hint: command.input?.hint == null ? null : clip(command.input.hint, 200),
  }));
}

/**
 * The agent's modes and its select config options as selectors. Where a config option is the mode
 * (category `mode`) and the agent also has session modes, the modes stand for it (one mode picker).
 * Boolean options are left out (Cairn does not declare them).
 */
export function selectorsOf(
  modes: SessionModeState | null,
  configOptions: readonly SessionConfigOption[] | null,
): AcpSelector[] {
  const selectors: AcpSelector[] = [];
  if (modes !== null && modes.availableModes.length > 0)
    selectors.push({
      id: ACP_MODE_SELECTOR,
      kind: 'mode',
      name: 'Mode',
      category: 'mode',
      current: modes.currentModeId,
      choices: modes.availableModes.slice(0, MAX_CHOICES).map((mode) => ({
        value: mode.id,
        name: clip(mode.name, 100),
        description: mode.description == null ? null : clip(mode.description, 300),
      })),
    });
  for (const option of configOptions ?? []) {
    if (option.type !== 'select') continue;
    if (option.category === 'mode' && modes !== null) continue;
    const choices = option.options
      .flatMap((entry) => ('value' in entry ? [entry] : entry.options))
      .slice(0, MAX_CHOICES)
      .map((entry) => ({
        value: entry.value,
        name: clip(entry.name, 100),
        description: entry.description == null ? null : clip(entry.description, 300),
      }));
    selectors.push({
      id: option.id,
      kind: 'option',
      name: clip(option.name, 100),
      category: option.category ?? null,
      current: option.currentValue,
      choices,
    });
  }
  return selectors;
}
