import { proposalSchema } from '../../../src-shared/workhub-proposal-schema';
import type { ModelStepEvent, ModelStepRequest, ProviderTarget } from '../connections/providers';
import { ProviderError } from '../connections/providers/provider-error';
import type { RoutedProposal, Router, RouterInput } from './scripted-router';

export const PROPOSE_TOOL = 'propose';

const PROPOSE_SCHEMA = {
  type: 'object',
  properties: {
    kind: {
      type: 'string',
      enum: [
        'answer_here',
        'clarify',
        'create_new',
        'delegate_existing',
        'choose',
        'stop_work',
        'resume_work',
        'correct',
      ],
    },
    why: { type: 'string', description: 'One sentence for the person: what you propose and why.' },
    text: {
      type: 'string',
      description:
        'answer_here: the answer. create_new / delegate_existing / choose: the request to hand over, in full.',
    },
    question: { type: 'string', description: 'clarify: the question to ask.' },
    title: { type: 'string', description: 'create_new: a short title for the new work.' },
    candidateRef: {
      type: 'string',
      description: 'delegate_existing, stop_work, resume_work, correct: the chosen candidate (c1, c2, …).',
    },
    candidateRefs: {
      type: 'array',
      items: { type: 'string' },
      description: 'choose: the candidates the person should pick from.',
    },
    replacesActionId: { type: 'string', description: 'correct: the action being corrected.' },
  },
  required: ['kind', 'why'],
  additionalProperties: false,
} as const;

export interface ModelRouterDeps {
  readonly target: () => ProviderTarget | { error: string };
  readonly streamStep: (request: ModelStepRequest) => AsyncIterable<ModelStepEvent>;
}

/** The router as a model call with structured output: the model must answer through the `propose` tool. */
export function createModelRouter(deps: ModelRouterDeps): Router {
  return {
    async route(input: RouterInput, signal: AbortSignal): Promise<RoutedProposal> {
      const target = deps.target();
      if ('error' in target) throw new ProviderError('bad_request', target.error);
      let text = '';
      let call: unknown = null;
      for await (const event of deps.streamStep({
        target,
        system:
          'You route a person’s request in Cairn, a desktop workspace with many agent sessions. Decide where it belongs and call the propose tool exactly once. Prefer an existing session when one clearly fits; ask (clarify) when unsure; only propose stop_work or correct when the person asks for it.',
        messages: [{ role: 'user', text: routerPrompt(input) }],
        tools: [
          {
            name: PROPOSE_TOOL,
            description: 'Propose what Cairn should do with the request.',
            inputSchema: PROPOSE_SCHEMA,
          },
        ],
        signal,
      })) {
        if (event.type === 'text_delta') text += event.text;
        if (event.type === 'tool_call' && event.toolName === PROPOSE_TOOL) call = event.input;
      }
      return proposalFromToolInput(call, input, text);
    },
  };
}

function routerPrompt({ text, candidates, latestDelegationActionId }: RouterInput): string {
  const list =
    candidates.length === 0
      ? '(no sessions yet)'
      : candidates.map((c) => `${c.candidateRef}: “${c.title}” — ${c.state}; ${c.why}`).join('\n');
  return `Request:\n${text}\n\nCandidate sessions:\n${list}\n\nLatest delegation action: ${latestDelegationActionId ?? 'none'}`;
}

/** Turns the model's tool input into a proposal; anything unusable becomes a clarifying question. */
export function proposalFromToolInput(raw: unknown, input: RouterInput, fallbackText: string): RoutedProposal {
  const fields = typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>) : {};
  const why = typeof fields.why === 'string' ? fields.why : '';
  const str = (key: string) => (typeof fields[key] === 'string' ? (fields[key] as string) : undefined);
  const candidate = str('candidateRef');
  const shaped = (() => {
    switch (fields.kind) {
      case 'answer_here':
        return { kind: 'answer_here', text: str('text') ?? fallbackText };
      case 'clarify':
        return { kind: 'clarify', question: str('question') ?? fallbackText };
      case 'create_new':
        return {
          kind: 'create_new',
          title: str('title') ?? 'New work',
          workspace: null,
          text: str('text') ?? input.text,
        };
      case 'delegate_existing':
        return { kind: 'delegate_existing', candidateRef: candidate, text: str('text') ?? input.text };
      case 'choose':
        return { kind: 'choose', candidateRefs: fields.candidateRefs, text: str('text') ?? input.text };
      case 'stop_work':
        return { kind: 'stop_work', target: { candidateRef: candidate } };
      case 'resume_work':
        return { kind: 'resume_work', target: { candidateRef: candidate } };
      case 'correct':
        return {
          kind: 'correct',
          replacesActionId: str('replacesActionId') ?? input.latestDelegationActionId,
          target: { candidateRef: candidate },
        };
      default:
        return null;
    }
  })();
  const parsed = proposalSchema.safeParse(shaped);
  if (!parsed.success) {
    return {
      proposal: { kind: 'clarify', question: fallbackText.trim() || 'Could you say more about what you want done?' },
      why: 'The router did not give a usable proposal.',
    };
  }
  return { proposal: parsed.data, why: why || 'Proposed by the model.' };
}
