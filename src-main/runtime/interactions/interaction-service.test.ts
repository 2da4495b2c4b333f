import { describe, expect, it } from 'vitest';
import type { StoredInteraction } from '../../storage/interaction-store';
import { InteractionService, type InteractionServiceDeps } from './interaction-service';

const pending = {
  interactionId: 'i1',
  sessionId: 's1',
  turnId: 't1',
  runId: 'r1',
  toolCallId: 'c1',
  request: { kind: 'network', host: 'example.com', port: 443 },
  status: 'pending',
  answer: null,
  answerSecretId: null,
  closeReason: null,
  createdAt: 1,
  updatedAt: 1,
} as unknown as StoredInteraction;

describe('an answer the host cannot apply', () => {
  it('fail-stops the agent tree of its session once, and is thrown on as the bug it is', () => {
    const stopped: Array<[string, string]> = [];
    // The record breaks under the answer: reading the session throws.
    const deps = {
      stores: {
        interactions: { get: () => pending },
        sessions: {
          get: () => {
            throw new Error('disk gone');
          },
        },
      },
      failStop: (sessionId: string, reason: string) => stopped.push([sessionId, reason]),
    } as unknown as InteractionServiceDeps;
    const service = new InteractionService(deps);
    expect(() => service.answer('i1', { action: 'deny' })).toThrow('disk gone');
    expect(stopped).toEqual([['s1', 'An answer could not be applied: disk gone']]);
  });
});
