import { describe, expect, it } from 'vitest';
import { agentModeIn, modesAllowed, shownMode } from './acp-modes';
import type { AcpSelector } from './acp-model';

const claude = ['default', 'acceptEdits', 'plan', 'auto', 'bypassPermissions'];

describe('the agent’s modes under Cairn’s permission mode', () => {
  it('offers modes that act without asking only in Full; Explore keeps to read-only ones', () => {
    expect(modesAllowed(claude, 'full')).toEqual(claude);
    expect(modesAllowed(claude, 'ask')).toEqual(['default', 'plan']);
    expect(modesAllowed(claude, 'auto')).toEqual(['default', 'plan']);
    expect(modesAllowed(claude, 'explore')).toEqual(['plan']);
    expect(modesAllowed(['default', 'yolo'], 'explore')).toEqual(['default']);
  });

  it('puts the agent in the person’s choice where allowed, else in the mode that lets Cairn decide', () => {
    expect(agentModeIn(claude, 'full', 'bypassPermissions')).toBe('bypassPermissions');
    expect(agentModeIn(claude, 'ask', 'bypassPermissions')).toBe('default');
    expect(agentModeIn(claude, 'ask', 'plan')).toBe('plan');
    expect(agentModeIn(claude, 'explore', null)).toBe('plan');
    expect(agentModeIn(['yolo'], 'ask', null)).toBeNull();
  });

  it('never shows a mode the permission mode forbids as current', () => {
    const selector: AcpSelector = {
      id: 'mode',
      kind: 'mode',
      name: 'Mode',
      category: 'mode',
      current: 'bypassPermissions',
      choices: claude.map((value) => ({ value, name: value, description: null })),
    };
    expect(shownMode(selector, 'full', 'bypassPermissions')).toBe('bypassPermissions');
    expect(shownMode(selector, 'ask', 'bypassPermissions')).toBe('default');
  });
});
