import { describe, expect, it } from 'vitest';
import { parseSidebarChoice, SIDEBAR_DEFAULT_MIN_WIDTH, sidebarShown } from './sidebar-layout';

describe('sidebar layout', () => {
  it('shows the sidebar by default only in a wide window', () => {
    expect(sidebarShown(null, 1280)).toBe(true);
    expect(sidebarShown(null, SIDEBAR_DEFAULT_MIN_WIDTH)).toBe(true);
    expect(sidebarShown(null, 900)).toBe(false);
  });

  it('follows the person’s remembered choice at any width', () => {
    expect(sidebarShown('shown', 760)).toBe(true);
    expect(sidebarShown('hidden', 1600)).toBe(false);
  });

  it('reads only the two values it writes', () => {
    expect(parseSidebarChoice('hidden')).toBe('hidden');
    expect(parseSidebarChoice('shown')).toBe('shown');
    expect(parseSidebarChoice('collapsed')).toBeNull();
    expect(parseSidebarChoice(null)).toBeNull();
  });
});
