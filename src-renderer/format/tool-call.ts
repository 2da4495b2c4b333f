import type { TranscriptItem } from '../../src-shared/model';

/** How a tool call stands, as its line in the transcript shows it. */
export type ToolCallStatus = 'running' | 'done' | 'failed' | 'denied' | 'stopped';

export const TOOL_STATUS_LABELS: Readonly<Record<ToolCallStatus, string>> = {
  running: 'Running',
  done: 'Done',
  failed: 'Failed',
  denied: 'Not allowed',
  stopped: 'No result',
};

type Fields = Readonly<Record<string, unknown>>;

function fieldsOf(value: unknown): Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Fields) : {};
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value : null;
}

function firstLine(value: string): string {
  const line = value.trim().split('\n')[0] ?? '';
  return line.length < value.trim().length ? `${line} …` : line;
}

/** What a call works on, in one line: the file, the pattern, or the command. */
export function toolTarget(toolName: string, input: unknown): string | null {
  const fields = fieldsOf(input);
  switch (toolName) {
    case 'run_shell': {
      const command = text(fields.command);
      return command === null ? null : firstLine(command);
    }
    case 'list_files':
      return text(fields.path) ?? '.';
    case 'glob':
    case 'grep': {
      const pattern = text(fields.pattern);
      const path = text(fields.path);
      if (pattern === null) return null;
      return path === null ? pattern : `${pattern} in ${path}`;
    }
    default: {
      for (const key of ['path', 'pattern', 'command', 'query', 'url', 'name', 'objective']) {
        const value = text(fields[key]);
        if (value !== null) return firstLine(value);
      }
      return null;
    }
  }
}

/** A call's standing from its result (if any) and whether its turn still runs. */
export function toolCallStatus(result: TranscriptItem | undefined, turnActive: boolean): ToolCallStatus {
  if (result === undefined) return turnActive ? 'running' : 'stopped';
  if (result.data?.isError !== true) return 'done';
  return fieldsOf(result.data.output).action === 'deny' ? 'denied' : 'failed';
}

/** A failed call's message in one line (a tool returns a string or `{ error }`), for its line in the transcript. */
export function toolErrorText(result: TranscriptItem | undefined): string | null {
  if (result?.data?.isError !== true) return null;
  const output = result.data.output;
  const message =
    typeof output === 'string' ? output : (text(fieldsOf(output).error) ?? text(fieldsOf(output).message));
  return message === null ? null : firstLine(message);
}

/** A duration for a person: "120 ms", "4.2 s", "3 min 5 s", "1 h 2 min". */
export function formatDuration(ms: number): string {
  const safe = Math.max(0, ms);
  if (safe < 1000) return `${Math.round(safe)} ms`;
  if (safe < 10_000) return `${(Math.floor(safe / 100) / 10).toFixed(1)} s`;
  const seconds = Math.floor(safe / 1000);
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ${seconds % 60} s`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/** A running time that ticks once a second: whole seconds ("0 s", "12 s"), then as formatDuration. */
export function formatRunningTime(ms: number): string {
  const seconds = Math.floor(Math.max(0, ms) / 1000);
  return seconds < 60 ? `${seconds} s` : formatDuration(seconds * 1000);
}

export interface ValueSections {
  /** Short values, shown as "key: value" on one line. */
  readonly facts: ReadonlyArray<readonly [string, string]>;
  /** Long or multi-line values, each in its own block. */
  readonly blocks: ReadonlyArray<{ readonly label: string; readonly text: string }>;
}

const LONG = 120;

/**
 * A tool's input or output laid out for reading: a file's content or a listing as a block of text
 * rather than a JSON string full of `\n`, short values as facts.
 */
export function valueSections(value: unknown, label: string): ValueSections {
  if (value === undefined || value === null) return { facts: [], blocks: [] };
  if (typeof value === 'string') return { facts: [], blocks: value === '' ? [] : [{ label, text: value }] };
  if (typeof value !== 'object' || Array.isArray(value))
    return { facts: [], blocks: [{ label, text: JSON.stringify(value, null, 2) }] };
  const facts: Array<readonly [string, string]> = [];
  const blocks: Array<{ label: string; text: string }> = [];
  for (const [key, field] of Object.entries(value as Fields)) {
    if (typeof field === 'string') {
      if (field.includes('\n') || field.length > LONG) blocks.push({ label: key, text: field });
      else facts.push([key, field === '' ? '""' : field]);
    } else if (typeof field === 'number' || typeof field === 'boolean' || field === null) {
      facts.push([key, String(field)]);
    } else if (field !== undefined) {
      const compact = JSON.stringify(field);
      if (compact.length <= LONG) facts.push([key, compact]);
      else blocks.push({ label: key, text: JSON.stringify(field, null, 2) });
    }
  }
  return { facts, blocks };
}
