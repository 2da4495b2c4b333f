import { dateTimeLabel } from './dates';

export interface TitledSession {
  readonly sessionId: string;
  readonly title: string;
  readonly workspacePath: string | null;
  readonly updatedAt: number;
}

/**
 * Labels for a list of sessions to pick from (an automation's target, the WorkHub's candidates): the
 * title, and where two or more share it, what tells them apart — the workspace folder's name when
 * that differs, else when each was last active, else an ordinal.
 */
export function distinctTitles(
  sessions: readonly TitledSession[],
  now: number,
  locale?: string,
): ReadonlyMap<string, string> {
  const labels = new Map<string, string>();
  const byTitle = new Map<string, TitledSession[]>();
  for (const session of sessions) byTitle.set(session.title, [...(byTitle.get(session.title) ?? []), session]);
  for (const [title, same] of byTitle) {
    if (same.length === 1) {
      labels.set(same[0]!.sessionId, title);
      continue;
    }
    const folders = same.map((session) => folderName(session.workspacePath));
    const whens = same.map((session) => dateTimeLabel(session.updatedAt, now, locale === undefined ? {} : { locale }));
    const detail = unique(folders) ? folders : unique(whens) ? whens : same.map((_, index) => `${index + 1}`);
    same.forEach((session, index) => labels.set(session.sessionId, `${title} — ${detail[index]!}`));
  }
  return labels;
}

function folderName(path: string | null): string {
  if (path === null) return 'no folder';
  return (
    path
      .replace(/[\\/]+$/, '')
      .split(/[\\/]/)
      .pop() || path
  );
}

function unique(values: readonly string[]): boolean {
  return new Set(values).size === values.length;
}
