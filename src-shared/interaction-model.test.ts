import { describe, expect, it } from 'vitest';
import { answerInputSchema, interactionAnswerSchema, readRecordedAnswer } from './interaction-model';
import { validateAnswer } from './interaction-validation';

describe('a denial says deny', () => {
  it('is sent as { action: deny }, and an acceptance that says deny is not an answer of this protocol', () => {
    expect(interactionAnswerSchema.safeParse({ action: 'deny', reason: 'not now' }).success).toBe(true);
    expect(interactionAnswerSchema.safeParse({ action: 'accept', decision: 'deny' }).success).toBe(false);
    expect(interactionAnswerSchema.safeParse({ action: 'accept', network: 'deny' }).success).toBe(false);
  });

  it('a protocol 1 denial is still accepted from a client, read as { action: deny }', () => {
    expect(answerInputSchema.parse({ action: 'accept', decision: 'deny', reason: 'not now' })).toEqual({
      action: 'deny',
      reason: 'not now',
    });
    expect(answerInputSchema.parse({ action: 'accept', network: 'deny' })).toEqual({ action: 'deny' });
    expect(answerInputSchema.parse({ action: 'accept', decision: 'allow_once' })).toEqual({
      action: 'accept',
      decision: 'allow_once',
    });
  });

  it('an answer recorded in the protocol 1 shape reads as deny; any other recorded answer is kept as it is', () => {
    expect(readRecordedAnswer({ action: 'accept', decision: 'deny' })).toEqual({ action: 'deny' });
    expect(readRecordedAnswer({ action: 'accept', network: 'deny' })).toEqual({ action: 'deny' });
    const kept = { action: 'accept', answers: { q: { optionIds: ['a'] } } };
    expect(readRecordedAnswer(kept)).toBe(kept);
  });

  it('deny answers a permission request or a blocked host, not a question', () => {
    const question = {
      kind: 'question' as const,
      questions: [
        { id: 'q', header: 'Q', prompt: 'Which?', options: [], multiple: false, allowOther: true, secret: false },
      ],
    };
    expect(validateAnswer(question, { action: 'deny' })).toHaveLength(1);
    expect(validateAnswer({ kind: 'network', host: 'example.com', port: 443 }, { action: 'deny' })).toEqual([]);
  });
});
