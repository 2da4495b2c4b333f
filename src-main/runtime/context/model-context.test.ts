import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ContextAssembler } from './context-assembler';
import { createModelContext, FITS_KEPT, type FitRequest } from './model-context';
import { OffloadStore } from './offload';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

describe('model context', () => {
  it('remeasures only the sessions fitted most recently (what it keeps per session is bounded)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cairn-model-context-'));
    dirs.push(dir);
    const measured: string[] = [];
    const context = createModelContext({
      assembler: new ContextAssembler({ transcript: { page: () => [] }, offload: new OffloadStore(dir) }),
      overrideOf: () => null,
      onMeter: (sessionId) => measured.push(sessionId),
    });
    const fit = (sessionId: string) =>
      context.fit({
        sessionId,
        connectionId: 'c1',
        turnId: 't1',
        turnText: 'Go on',
        target: { providerType: 'anthropic', baseUrl: null, apiKey: null, modelId: 'claude-sonnet-4-5' },
        system: `The system prompt of ${sessionId}. ${'Instructions. '.repeat(500)}`,
        tools: [],
      } satisfies FitRequest);
    fit('first');
    fit('busy');
    for (let index = 0; index < FITS_KEPT - 1; index += 1) fit(`child-${index}`);
    measured.length = 0;
    context.remeasure('busy');
    context.remeasure('first');
    expect(measured).toEqual(['busy']); // `first` was fitted before a hundred others: forgotten
  });
});
