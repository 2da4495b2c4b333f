import { describe, expect, it } from 'vitest';
import type { McpPromptInfo } from '../../../src-shared/mcp-model';
import { matchingPrompts } from './mcp-prompt-match';

const prompt = (serverName: string, name: string, title: string): McpPromptInfo => ({
  serverId: serverName.toLowerCase(),
  serverName,
  name,
  title,
  description: '',
  arguments: [],
});
const prompts = [
  prompt('Notes', 'review', 'Review a file'),
  prompt('Notes', 'summary', 'Summarise the day'),
  prompt('Tracker', 'triage', 'Triage issues'),
];

describe('matchingPrompts', () => {
  it('filters by the start of the name, anywhere in the title, or the server', () => {
    expect(matchingPrompts(prompts, '').map((p) => p.name)).toEqual(['review', 'summary', 'triage']);
    expect(matchingPrompts(prompts, 're').map((p) => p.name)).toEqual(['review']);
    expect(matchingPrompts(prompts, 'day').map((p) => p.name)).toEqual(['summary']);
    expect(matchingPrompts(prompts, 'TRACK').map((p) => p.name)).toEqual(['triage']);
    expect(matchingPrompts(prompts, 'zzz')).toEqual([]);
  });
});
