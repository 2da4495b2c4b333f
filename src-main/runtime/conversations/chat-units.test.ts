import { describe, expect, it } from 'vitest';
import type { TranscriptItem } from '../../../src-shared/model';
import { storedModelSettings, systemPromptWith } from './chat-preferences';
import { exportSession, fileSlug, itemMarkdown } from './session-export';

const item = (
  kind: TranscriptItem['kind'],
  text: string,
  data: Record<string, unknown> | null = null,
): TranscriptItem => ({
  itemId: 'i',
  sessionId: 's',
  turnId: 't',
  runId: 'r',
  position: 0,
  kind,
  text,
  state: 'final',
  data,
  createdAt: 0,
});

describe('stored model settings', () => {
  it('keeps what is valid and drops what is not', () => {
    expect(storedModelSettings({ temperature: 0.5, maxOutputTokens: 100, reasoningEffort: 'low' })).toEqual({
      temperature: 0.5,
      maxOutputTokens: 100,
      reasoningEffort: 'low',
    });
    expect(storedModelSettings({ temperature: 9, maxOutputTokens: 100, reasoningEffort: 'extreme', extra: 1 })).toEqual(
      { maxOutputTokens: 100 },
    );
    expect(storedModelSettings('nonsense')).toEqual({});
  });
});

describe('the system prompt with instructions', () => {
  it('adds global then session instructions, each marked as the person’s', () => {
    expect(systemPromptWith('Base.', [])).toBe('Base.');
    expect(
      systemPromptWith('Base.', [
        { scope: 'global', text: 'G' },
        { scope: 'session', text: 'S' },
      ]),
    ).toBe(
      'Base.\n\nInstructions from the person for every session:\nG\n\nInstructions from the person for this session:\nS',
    );
  });
});

describe('export content', () => {
  it('names the file from the title and masks secrets in tool data too', () => {
    expect(fileSlug('Ünïcode: plans / notes!')).toBe('unicode-plans-notes');
    expect(fileSlug('!!!')).toBe('cairn-session');
    const session = {
      sessionId: 's',
      title: 'T',
      titleSource: 'user',
      workspacePath: null,
      connectionId: 'c',
      model: 'm',
      permissionMode: 'ask',
      archived: false,
      activity: 'idle',
      branchOf: null,
      revision: 1,
      createdAt: 0,
      updatedAt: 0,
    } as const;
    const record = {
      session,
      connectionName: 'Conn',
      instructions: '',
      modelSettings: {},
      items: [item('tool_call', 'read', { toolCallId: 'x', toolName: 'read', input: { token: 'hunter2-secret' } })],
      turns: [],
      usage: { calls: 0, inputTokens: 0, outputTokens: 0, cachedInputTokens: 0, reasoningTokens: 0, costUsd: null },
    };
    const json = exportSession(record, 'json', ['hunter2-secret'], Date.UTC(2026, 0, 2));
    expect(json.fileName).toBe('t-2026-01-02.json');
    expect(json.content).not.toContain('hunter2-secret');
    expect(json.content).toContain('[redacted]');
    expect(exportSession(record, 'markdown', ['hunter2-secret'], 0).content).not.toContain('hunter2-secret');
  });

  it('renders ask_user questions and answers as readable text, not the raw tool input and output', () => {
    const input = {
      questions: [
        {
          question: 'Which auth method should we use?',
          header: 'Auth',
          options: [{ label: 'OAuth', description: 'Sign in with a provider' }, { label: 'API key' }],
        },
        { question: 'Anything else?', header: 'Notes' },
      ],
    };
    const asked = itemMarkdown(item('tool_call', 'ask_user', { toolCallId: 'q', toolName: 'ask_user', input }));
    expect(asked).toBe(
      '**The agent asked:**\n\n- **Auth:** Which auth method should we use?\n  - OAuth — Sign in with a provider\n  - API key\n- **Notes:** Anything else?',
    );
    const output = {
      action: 'accept',
      answers: [
        { questionId: 'q1', header: 'Auth', question: 'Which auth method should we use?', selected: ['OAuth'] },
        { questionId: 'q2', header: 'Notes', question: 'Anything else?', selected: [], text: 'Keep it short' },
      ],
    };
    const answered = itemMarkdown(
      item('tool_result', 'ask_user', { toolCallId: 'q', toolName: 'ask_user', output, isError: false }),
    );
    expect(answered).toBe('**You answered:**\n\n- **Auth:** OAuth\n- **Notes:** Keep it short');
    for (const block of [asked, answered]) {
      expect(block).not.toContain('{');
      expect(block).not.toContain('multiSelect');
    }
    const declined = itemMarkdown(
      item('tool_result', 'ask_user', {
        toolName: 'ask_user',
        output: { action: 'decline', note: 'The person declined to answer.' },
        isError: false,
      }),
    );
    expect(declined).toBe('**You declined to answer.**');
    const form = itemMarkdown(
      item('tool_call', 'ask_user', {
        toolName: 'ask_user',
        input: {
          form: { title: 'Deploy', fields: [{ id: 'env', label: 'Environment', required: true, type: 'string' }] },
        },
      }),
    );
    expect(form).toBe('**The agent asked:**\n\n- **Deploy**\n  - Environment');
    expect(
      itemMarkdown(
        item('tool_result', 'ask_user', {
          toolName: 'ask_user',
          output: { action: 'accept', values: { env: 'staging' } },
          isError: false,
        }),
      ),
    ).toBe('**You answered:**\n\n- **env:** staging');
  });

  it('names who wrote a message the person did not: a scheduled task or the daily review', () => {
    expect(
      itemMarkdown(
        item('user_message', 'Check the beds', {
          author: { kind: 'scheduled_task', taskId: 't', taskTitle: 'Garden ping' },
        }),
      ),
    ).toBe('## Scheduled · Garden ping\n\nCheck the beds');
    expect(
      itemMarkdown(item('user_message', 'Review', { author: { kind: 'daily_review', taskId: 'daily-review' } })),
    ).toBe('## Daily review\n\nReview');
    expect(itemMarkdown(item('user_message', 'Mine'))).toBe('## You\n\nMine');
  });

  it('fences code that itself holds backticks with a longer fence', () => {
    const block = itemMarkdown(item('tool_result', 'r', { toolName: 'x', output: 'a ``` b', isError: false }));
    expect(block).toBe('**Tool result:**\n\n````\na ``` b\n````');
    expect(itemMarkdown(item('reasoning', '  '))).toBeNull();
  });
});
