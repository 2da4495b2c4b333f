import { describe, expect, it } from 'vitest';
import { PROPOSAL_KINDS } from './workhub-model';
import { proposalSchema } from './workhub-proposal-schema';

describe('proposalSchema', () => {
  it('decodes exactly the proposal kinds workhub-model names', () => {
    const kinds = proposalSchema.options.map((option) => option.shape.kind.value);
    expect([...kinds].sort()).toEqual([...PROPOSAL_KINDS].sort());
  });
});
