import { isResumeNotice } from './run-reasons';

interface AnswerPartLike {
  readonly kind: string;
  readonly turnId: string | null;
  readonly runId: string | null;
  readonly data: Readonly<Record<string, unknown>> | null;
}

/**
 * Whether the item at `index` carries on the answer before it: an assistant message of the same turn
 * from a later run (Continue after Stop, Resume after a restart, Retry after it was cut off), with only
 * resumed runs' markers between. The screen and the Markdown export show the parts as one answer.
 */
export function continuesAnswerAt(itemAt: (index: number) => AnswerPartLike | undefined, index: number): boolean {
  const item = itemAt(index);
  let at = index - 1;
  for (let before = itemAt(at); before !== undefined && isResumeNotice(before); before = itemAt(at)) at -= 1;
  const before = itemAt(at);
  return (
    item !== undefined &&
    before !== undefined &&
    item.kind === 'assistant_message' &&
    before.kind === 'assistant_message' &&
    item.turnId === before.turnId &&
    item.runId !== before.runId
  );
}
