import type { ConnectionRecord } from '../../../src-shared/connection-model';
import type { ChangeEvent, ChangeEventBody } from '../../../src-shared/events';
import type { GoalRecord } from '../../../src-shared/goal-model';
import type { InteractionRecord } from '../../../src-shared/interaction-model';
import type { QueuedMessage, SessionRecord, TranscriptItem, TurnSummary } from '../../../src-shared/model';

/** Builders for reducer and store tests: plain records with sensible defaults. */

export function session(overrides: Partial<SessionRecord> & { sessionId: string }): SessionRecord {
  return {
    title: 'New session',
    titleSource: 'default',
    workspacePath: null,
    connectionId: 'offline-demo',
    model: null,
    permissionMode: 'ask',
    archived: false,
    activity: 'idle',
    branchOf: null,
    revision: 1,
    createdAt: 1000,
    updatedAt: 1000,
    ...overrides,
  };
}

export function item(overrides: Partial<TranscriptItem> & { itemId: string; position: number }): TranscriptItem {
  const defaults = {
    sessionId: 's1',
    turnId: 't1',
    runId: 'r1',
    kind: 'assistant_message' as const,
    text: '',
    state: 'final' as const,
    data: null,
    createdAt: 1000,
  };
  return { ...defaults, ...overrides };
}

export function turn(overrides: Partial<TurnSummary> & { turnId: string }): TurnSummary {
  const status = overrides.status ?? 'completed';
  // Built untyped first so the defaults can name fields newer than some TurnSummary shapes.
  const defaults = {
    sessionId: 's1',
    origin: 'user' as const,
    text: 'hello',
    status,
    maxSteps: 25,
    createdAt: 1000,
    updatedAt: 1000,
    usage: null,
    latestRun: {
      runId: 'r1',
      attempt: 1,
      kind: 'initial' as const,
      status,
      terminalReason: null,
      errorCode: null,
      errorMessage: null,
      startedAt: 1000,
      endedAt: null,
    },
  };
  return { ...defaults, ...overrides };
}

export function queued(overrides: Partial<QueuedMessage> & { messageId: string }): QueuedMessage {
  return {
    sessionId: 's1',
    text: 'follow-up',
    state: 'queued',
    turnId: null,
    createdAt: 1000,
    updatedAt: 1000,
    ...overrides,
  };
}

export function connection(overrides: Partial<ConnectionRecord> & { connectionId: string }): ConnectionRecord {
  return {
    name: 'Local',
    providerType: 'openai_compatible',
    baseUrl: 'http://127.0.0.1:1234/v1',
    enabled: true,
    enabledModelIds: [],
    models: [],
    modelsFetchedAt: null,
    hasApiKey: false,
    firstTokenTimeoutSeconds: 120,
    idleTimeoutSeconds: 60,
    codexBinary: null,
    acpAgent: null,
    lastTest: null,
    builtIn: false,
    revision: 1,
    createdAt: 1,
    updatedAt: 1,
    ...overrides,
  };
}

export function interaction(overrides: Partial<InteractionRecord> & { interactionId: string }): InteractionRecord {
  return {
    sessionId: 's1',
    turnId: 't1',
    runId: 'r1',
    toolCallId: 'call-1',
    request: {
      kind: 'question',
      questions: [
        {
          id: 'q',
          header: 'Pick',
          prompt: 'Which?',
          options: [
            { id: 'a', label: 'A' },
            { id: 'b', label: 'B' },
          ],
          multiple: false,
          allowOther: false,
          secret: false,
        },
      ],
    },
    status: 'pending',
    answer: null,
    closeReason: null,
    createdAt: 1000,
    updatedAt: 1000,
    ...overrides,
  };
}

export function goal(overrides: Partial<GoalRecord> & { goalId: string }): GoalRecord {
  return {
    sessionId: 's1',
    objective: 'Write the summary',
    status: 'active',
    tokenBudget: null,
    tokensUsed: 0,
    maxIterations: null,
    iterations: 0,
    timeUsedSeconds: 0,
    revision: 1,
    createdAt: 1000,
    updatedAt: 1000,
    lastReason: null,
    cleared: false,
    createdBy: 'person',
    ...overrides,
  };
}

/** Stamps event bodies with consecutive seq numbers. */
export function events(...bodies: ChangeEventBody[]): ChangeEvent[] {
  return bodies.map((body, index) => ({ ...body, seq: index + 1, hostEpoch: 'epoch-1' }) as ChangeEvent);
}
