import { describe, expect, it } from 'vitest';
import type { MemoryRecord } from '../../../src-shared/memory-model';
import { withMemoryBrief } from './memory-brief';

const memory = (text: string, scope: MemoryRecord['scope']): MemoryRecord => ({
  memoryId: text,
  text,
  scope,
  workspacePath: scope === 'global' ? null : '/w',
  sourceSessionId: null,
  sourceTurnId: null,
  editedBy: 'agent',
  revision: 1,
  createdAt: 0,
  updatedAt: 0,
});

describe('the memory brief', () => {
  it('leaves the system prompt alone when there is nothing remembered', () => {
    expect(withMemoryBrief('System.', [])).toBe('System.');
  });

  it('appends one line per memory, marking the global ones', () => {
    const brief = withMemoryBrief('System.', [
      memory('Uses pnpm\n  not npm', 'workspace'),
      memory('British English', 'global'),
    ]);
    expect(brief).toBe(
      'System.\n\nWhat you remembered in earlier sessions (use recall to search for more; remember to add):\n- Uses pnpm not npm\n- British English (global)',
    );
  });
});
