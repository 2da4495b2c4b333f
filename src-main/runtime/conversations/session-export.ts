import { messageAuthorLabel, messageAuthorOf } from '../../../src-shared/message-author';
import { continuesAnswerAt } from '../../../src-shared/answer-parts';
import { isResumeNotice } from '../../../src-shared/run-reasons';
import type { ModelSettings } from '../../../src-shared/chat-model';
import type { SessionRecord, TranscriptItem, TurnSummary } from '../../../src-shared/model';
import type { ExportFormat, SessionExport } from '../../../src-shared/operations/chat-operations';
import type { UsageTotals } from '../../../src-shared/usage-model';
import { redactSecrets } from '../connections/providers/redact-secrets';
import { answeredMarkdown, askedMarkdown, isAskUser } from './ask-user-markdown';

/** Everything an export is made of, read in one go. */
export interface SessionRecordForExport {
  readonly session: SessionRecord;
  /** The connection's name as the person knows it. */
  readonly connectionName: string;
  readonly instructions: string;
  readonly modelSettings: ModelSettings;
  readonly items: readonly TranscriptItem[];
  readonly turns: readonly TurnSummary[];
  readonly usage: UsageTotals;
}

/** A tool result longer than this is cut in the Markdown export (the JSON export keeps it whole). */
const MARKDOWN_OUTPUT_LIMIT = 4000;

/**
 * The session as a file. Markdown is for reading (messages, tool calls, what they returned); JSON is
 * the durable record (session, turns, every transcript item, usage). In both, every known secret and
 * anything shaped like an API key is masked.
 */
export function exportSession(
  record: SessionRecordForExport,
  format: ExportFormat,
  secrets: readonly string[],
  exportedAt: number,
): SessionExport {
  const stamp = new Date(exportedAt).toISOString().slice(0, 10);
  const base = `${fileSlug(record.session.title)}-${stamp}`;
  if (format === 'markdown') {
    return {
      fileName: `${base}.md`,
      mimeType: 'text/markdown',
      content: redactSecrets(sessionMarkdown(record, exportedAt), secrets),
    };
  }
  const json = {
    format: 'cairn.session',
    version: 1,
    exportedAt: new Date(exportedAt).toISOString(),
    session: record.session,
    connectionName: record.connectionName,
    instructions: record.instructions,
    modelSettings: record.modelSettings,
    usage: record.usage,
    turns: record.turns,
    transcript: record.items,
  };
  return {
    fileName: `${base}.json`,
    mimeType: 'application/json',
    content: `${JSON.stringify(masked(json, secrets), null, 2)}\n`,
  };
}

/** A file name from a title: letters, digits and dashes, never empty. */
export function fileSlug(title: string): string {
  const slug = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  return slug === '' ? 'cairn-session' : slug;
}

function masked(value: unknown, secrets: readonly string[]): unknown {
  if (typeof value === 'string') return redactSecrets(value, secrets);
  if (Array.isArray(value)) return value.map((entry) => masked(entry, secrets));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, masked(entry, secrets)]));
  }
  return value;
}

/** The conversation as Markdown, the way it reads on screen. */
export function sessionMarkdown(record: SessionRecordForExport, exportedAt: number): string {
  const { session } = record;
  const lines: string[] = [`# ${session.title}`, ''];
  lines.push(`- Model: ${session.model ?? 'the connection’s default'} (${record.connectionName})`);
  lines.push(`- Started: ${new Date(session.createdAt).toISOString()}`);
  lines.push(`- Exported: ${new Date(exportedAt).toISOString()}`);
  if (record.instructions !== '') lines.push('', '**Instructions for this session**', '', quoted(record.instructions));
  const { items } = record;
  for (let index = 0; index < items.length; index += 1) {
    const item = items[index]!;
    if (item.kind === 'assistant_message') {
      // An answer stopped (or cut off) and continued by a later run of its turn is one section.
      let text = item.text;
      let parts = 1;
      for (
        let next = index + 1;
        next < items.length && (isResumeNotice(items[next]!) || continuesAnswerAt((at) => items[at], next));
        next += 1
      ) {
        if (items[next]!.kind === 'assistant_message') {
          text += items[next]!.text;
          parts += 1;
        }
        index = next;
      }
      lines.push('', `## Agent\n\n${text}${parts > 1 ? '\n\n_This answer was cut off, then continued._' : ''}`);
      continue;
    }
    const block = itemMarkdown(item);
    if (block !== null) lines.push('', block);
  }
  return `${lines.join('\n')}\n`;
}

/** One transcript item as Markdown; null for what a reader does not need. */
export function itemMarkdown(item: TranscriptItem): string | null {
  switch (item.kind) {
    case 'user_message': {
      const author = messageAuthorOf(item.data);
      return `## ${author === null ? 'You' : messageAuthorLabel(author)}\n\n${item.text}`;
    }
    case 'assistant_message':
      return `## Agent\n\n${item.text}`;
    case 'reasoning':
      return item.text.trim() === '' ? null : `<details><summary>Reasoning</summary>\n\n${item.text}\n\n</details>`;
    case 'tool_call': {
      const name = typeof item.data?.toolName === 'string' ? item.data.toolName : item.text;
      const asked = isAskUser(name) ? askedMarkdown(item.data?.input) : null;
      if (asked !== null) return asked;
      return `**Tool call:** \`${name}\`\n\n${fenced(JSON.stringify(item.data?.input ?? null, null, 2), 'json')}`;
    }
    case 'tool_result': {
      const output = item.data?.output;
      const answered = isAskUser(item.data?.toolName) ? answeredMarkdown(output) : null;
      if (answered !== null) return answered;
      const text = typeof output === 'string' ? output : JSON.stringify(output ?? null, null, 2);
      const cut =
        text.length > MARKDOWN_OUTPUT_LIMIT
          ? `${text.slice(0, MARKDOWN_OUTPUT_LIMIT)}\n… (${text.length - MARKDOWN_OUTPUT_LIMIT} more characters)`
          : text;
      return `**${item.data?.isError === true ? 'Tool error' : 'Tool result'}:**\n\n${fenced(cut, '')}`;
    }
    case 'proposal':
    case 'notice':
      // A resumed run's marker says where work picked up again on screen; it is no part of the conversation.
      return item.text.trim() === '' || isResumeNotice(item) ? null : `_${item.text.trim()}_`;
  }
}

function fenced(text: string, language: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((match) => match[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}${language}\n${text}\n${fence}`;
}

function quoted(text: string): string {
  return text
    .split('\n')
    .map((line) => `> ${line}`)
    .join('\n');
}
