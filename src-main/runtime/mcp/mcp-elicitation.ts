import type { ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import type { LiveAsker, LiveOutcome, LiveQuestion } from '../interactions/live-interactions';
import type { McpElicitation } from './mcp-connections';
import { loadMcpClient } from './mcp-client-loader';
import { elicitationForm } from './mcp-elicitation-form';

/** Puts a question to the person inside a running call and waits for the outcome (the live interactions). */
export type AskPerson = (asker: LiveAsker, question: LiveQuestion, signal: AbortSignal) => Promise<LiveOutcome>;

const NOTICE_CHARS = 300;

/**
 * An MCP server's elicitation as a Cairn question: a form in the transcript and in Waiting for you,
 * named after the server. Accept sends the values back under the server's own names; decline and
 * cancel are passed on; a question closed without an answer (Stop, the run ended) is a cancel.
 */
export async function answerElicitation(ask: AskPerson, elicitation: McpElicitation): Promise<ElicitResult> {
  const form = elicitationForm(elicitation.serverName, elicitation.params, elicitation.raw);
  if ('error' in form) throw (await loadMcpClient()).protocolRefusal('invalid_params', form.error);
  const message = elicitation.params.message.trim();
  const notice = `The MCP server "${elicitation.serverName}" asks${message === '' ? ' for input' : `: ${message.length > NOTICE_CHARS ? `${message.slice(0, NOTICE_CHARS - 1)}…` : message}`}`;
  const outcome = await ask(elicitation.caller, { request: form.request, notice }, elicitation.signal);
  if ('closed' in outcome) return { action: 'cancel' };
  const { answer } = outcome;
  // Deny answers only a permission or a blocked host (validateAnswer): never here, but it would decline.
  if (answer.action !== 'accept') return { action: answer.action === 'deny' ? 'decline' : answer.action };
  return { action: 'accept', content: 'values' in answer ? form.content(answer.values) : {} };
}
