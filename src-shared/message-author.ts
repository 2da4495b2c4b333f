/**
 * Who wrote a message the person did not type: a scheduled task or the daily review. Kept on the
 * message's transcript item (`data.author`), so the transcript marks it ("Scheduled · Garden ping",
 * "Daily review") instead of showing it as the person's own words, and offers no Edit.
 */
export type MessageAuthor =
  | { readonly kind: 'scheduled_task'; readonly taskId: string; readonly taskTitle: string }
  | { readonly kind: 'daily_review'; readonly taskId: string };

/** The author recorded on a transcript item's data, or null (the person wrote it). */
export function messageAuthorOf(data: Readonly<Record<string, unknown>> | null): MessageAuthor | null {
  const author = data?.author;
  if (typeof author !== 'object' || author === null) return null;
  const fields = author as Record<string, unknown>;
  if (typeof fields.taskId !== 'string') return null;
  if (fields.kind === 'daily_review') return { kind: 'daily_review', taskId: fields.taskId };
  if (fields.kind === 'scheduled_task' && typeof fields.taskTitle === 'string')
    return { kind: 'scheduled_task', taskId: fields.taskId, taskTitle: fields.taskTitle };
  return null;
}

/** How the transcript and exports name the author: "Scheduled · Garden ping" or "Daily review". */
export function messageAuthorLabel(author: MessageAuthor): string {
  return author.kind === 'daily_review' ? 'Daily review' : `Scheduled · ${author.taskTitle}`;
}
