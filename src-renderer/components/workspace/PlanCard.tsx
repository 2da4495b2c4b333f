import type { TranscriptItem } from '../../../src-shared/model';

export interface PlanEntryView {
  readonly content: string;
  readonly priority: string;
  readonly status: 'pending' | 'in_progress' | 'completed';
}

const STATUS_LABELS: Readonly<Record<PlanEntryView['status'], string>> = {
  pending: 'To do',
  in_progress: 'In progress',
  completed: 'Done',
};

/** The plan's entries from a recorded value (`{ entries }`); entries that do not read as one are left out. Pure. */
export function planEntriesOf(value: unknown): PlanEntryView[] | null {
  if (typeof value !== 'object' || value === null || !('entries' in value) || !Array.isArray(value.entries))
    return null;
  return value.entries.flatMap((entry: unknown) => {
    if (typeof entry !== 'object' || entry === null) return [];
    const { content, priority, status } = entry as Record<string, unknown>;
    if (typeof content !== 'string' || (status !== 'pending' && status !== 'in_progress' && status !== 'completed'))
      return [];
    return [{ content, priority: typeof priority === 'string' ? priority : 'medium', status }];
  });
}

/** The agent's plan as it stands: its latest plan (the call's latest result), else the first one (the call's input). */
export function PlanCard({ call, result }: { call: TranscriptItem | undefined; result: TranscriptItem | undefined }) {
  const entries = planEntriesOf(result?.data?.output) ?? planEntriesOf(call?.data?.input) ?? [];
  const done = entries.filter((entry) => entry.status === 'completed').length;
  return (
    <div className="message-line message-line-tool plan-card" data-testid="plan-card">
      <div className="plan-card-head">
        Plan <span className="plan-card-count">{`${done} of ${entries.length} done`}</span>
      </div>
      <ol className="plan-card-entries">
        {entries.map((entry, index) => (
          <li
            key={index}
            className={`plan-entry is-${entry.status}`}
            data-status={entry.status}
            data-priority={entry.priority}
          >
            <span className="plan-entry-status">{STATUS_LABELS[entry.status]}</span>
            <span className="plan-entry-content">{entry.content}</span>
          </li>
        ))}
      </ol>
    </div>
  );
}
