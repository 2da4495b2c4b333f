import { useId, useState } from 'react';
import type { CompactionNoticeData } from '../../src-shared/compaction-model';
import type { TranscriptItem } from '../../src-shared/model';
import { useStoreApi } from '../state/store-context';
import { LazyMarkdown } from './LazyMarkdown';

/** "turns 1–42" (one turn: "turn 1"); null when the range is not known (a native agent's compaction). */
export function summaryRange(compaction: CompactionNoticeData['compaction']): string | null {
  const { firstTurn, lastTurn } = compaction;
  if (firstTurn === null || lastTurn === null) return null;
  return firstTurn === lastTurn ? `turn ${firstTurn}` : `turns ${firstTurn}–${lastTurn}`;
}

/**
 * "Earlier conversation summarised": where older turns were compacted into a summary. The summary
 * opens on a click; the range says which turns it stands for, and a link scrolls to the first of them.
 * The transcript above keeps every message: only what the model is sent changed.
 */
export function CompactionCard({
  item,
  compaction,
}: {
  item: TranscriptItem;
  compaction: CompactionNoticeData['compaction'];
}) {
  const store = useStoreApi();
  const [open, setOpen] = useState(false);
  const bodyId = useId();
  const range = summaryRange(compaction);
  const firstItemId = compaction.firstItemId;
  const hasText = compaction.text !== null && compaction.text !== '';
  return (
    <div className="message-line message-line-compaction">
      <section
        className="compaction-card"
        data-testid="compaction-card"
        data-item-id={item.itemId}
        aria-label="Earlier conversation summarised"
      >
        <div className="compaction-card-head">
          <span className="compaction-card-title">{item.text}</span>
          {range === null ? null : (
            <span className="compaction-card-range" data-testid="compaction-range">
              {range}
            </span>
          )}
          {hasText ? (
            <button
              type="button"
              className="text-button"
              aria-expanded={open}
              aria-controls={bodyId}
              onClick={() => setOpen(!open)}
            >
              {open ? 'Hide summary' : 'Show summary'}
            </button>
          ) : null}
          {firstItemId === null ? null : (
            <button
              type="button"
              className="text-button"
              onClick={() =>
                store.setState({ focusedHit: { sessionId: item.sessionId, itemId: firstItemId, position: 0 } })
              }
            >
              Go to the first message
            </button>
          )}
        </div>
        {hasText ? (
          <div id={bodyId} className="compaction-card-body markdown" hidden={!open} data-testid="compaction-summary">
            <LazyMarkdown text={compaction.text ?? ''} />
          </div>
        ) : (
          <p className="compaction-card-note">
            {compaction.by === 'codex' ? 'Codex compacted its context.' : 'No summary text was kept.'}
          </p>
        )}
        <p className="compaction-card-note">
          The model is sent this summary and the turns after it; the messages above are all kept.
        </p>
      </section>
    </div>
  );
}
