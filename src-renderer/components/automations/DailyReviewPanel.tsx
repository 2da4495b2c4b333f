import { useEffect, useState } from 'react';
import { useAppStore, useStoreApi } from '../../state/store-context';
import { whenLabel } from '../../format/dates';
import { firingResult } from './automation-text';

/** The daily review's settings, its Run now, and a link to its pinned session. */
export function DailyReviewPanel() {
  const store = useStoreApi();
  const review = useAppStore((state) => state.automations.review);
  const connections = useAppStore((state) => state.catalog.connections);
  const [time, setTime] = useState('18:00');
  const [timeZone, setTimeZone] = useState(Intl.DateTimeFormat().resolvedOptions().timeZone);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (review === null) return;
    setTime(review.time);
    setTimeZone(review.timeZone);
  }, [review]);
  if (review === null) return null;
  const actions = store.getState();
  const save = async (enabled: boolean, target: { connectionId: string | null; model: string | null } = review) => {
    const outcome = await actions.saveReview({
      enabled,
      time,
      timeZone,
      connectionId: target.connectionId,
      model: target.model,
    });
    setError(outcome.ok ? null : outcome.message);
  };
  return (
    <section className="daily-review" aria-label="Daily review" data-testid="daily-review">
      <div className="automations-section-head">
        <h2>Daily review</h2>
        <label className="automation-switch-labelled">
          <input
            type="checkbox"
            role="switch"
            aria-label="Daily review enabled"
            checked={review.enabled}
            onChange={(event) => void save(event.target.checked)}
          />
          {review.enabled ? 'On' : 'Off'}
        </label>
      </div>
      <p className="field-help">
        Each day at this time, a review turn in the pinned “Daily review” session sums up the sessions you touched,
        goals, waiting questions and usage.
      </p>
      <div className="field-pair">
        <label className="field">
          <span className="field-label">Time</span>
          <input
            className="input"
            type="time"
            aria-label="Review time"
            value={time}
            onChange={(event) => setTime(event.target.value)}
            onBlur={() => void save(review.enabled)}
          />
        </label>
        <label className="field">
          <span className="field-label">Time zone</span>
          <input
            className="input"
            value={timeZone}
            onChange={(event) => setTimeZone(event.target.value)}
            onBlur={() => void save(review.enabled)}
          />
        </label>
      </div>
      <label className="field">
        <span className="field-label">Written by</span>
        <select
          className="input select"
          aria-label="Review connection"
          value={review.connectionId ?? ''}
          onChange={(event) =>
            void save(review.enabled, {
              connectionId: event.target.value === '' ? null : event.target.value,
              model: null,
            })
          }
        >
          <option value="">The default connection and model</option>
          {connections.map((connection) => (
            <option key={connection.connectionId} value={connection.connectionId}>
              {connection.name}
            </option>
          ))}
        </select>
      </label>
      {error !== null ? <p className="field-error">{error}</p> : null}
      <p className="automation-meta">
        Next: {review.nextRunAt === null ? '—' : whenLabel(review.nextRunAt, Date.now(), { timeZone: review.timeZone })}{' '}
        · Last:{' '}
        <span data-testid="review-last">
          {review.lastFiring === null ? 'never run' : firingResult(review.lastFiring)}
        </span>
      </p>
      <div className="automation-row-actions">
        <button
          type="button"
          className="button"
          disabled={review.revision === 0}
          aria-describedby={review.revision === 0 ? 'run-review-why' : undefined}
          onClick={() => void actions.runReviewNow()}
        >
          Run review now
        </button>
        {review.revision === 0 ? (
          <span className="field-help" id="run-review-why" data-testid="run-review-why">
            Turn the daily review on first: Run now uses its settings, which are not saved yet.
          </span>
        ) : null}
        {review.sessionId !== null ? (
          <button
            type="button"
            className="button"
            data-testid="open-review-session"
            onClick={() => actions.selectSession(review.sessionId)}
          >
            Open the Daily review session
          </button>
        ) : null}
      </div>
    </section>
  );
}
