import { useEffect } from 'react';
import { formatCost, formatTokenCount, UNKNOWN_COST } from '../format/usage';
import { useAppStore, useStoreApi } from '../state/store-context';
import { USAGE_DAYS, type UsageGrouping } from '../state/usage-slice';
import { Spinner } from './icons';

/** Settings → Usage: tokens and cost by day over the last month. */
export function UsagePage() {
  const store = useStoreApi();
  const usage = useAppStore((state) => state.dailyUsage);
  const by = useAppStore((state) => state.usageBy);

  useEffect(() => {
    void store.getState().loadDailyUsage();
  }, [store]);

  if (usage.state === 'failed') return <p className="form-notice tone-error">{usage.message}</p>;
  if (usage.state !== 'ready') {
    return (
      <div className="settings-loading">
        <Spinner label="Loading usage" />
      </div>
    );
  }
  const { totals, days } = usage;
  const rows = by === 'day' ? [...days].reverse() : days;
  return (
    <div className="usage-page">
      <h3 className="settings-heading">Last {USAGE_DAYS} days</h3>
      <UsageGroupingChoice by={by} onChange={(next) => store.getState().setUsageBy(next)} />
      <dl className="usage-totals">
        <div>
          <dt>Model calls</dt>
          <dd>{totals.calls.toLocaleString('en-US')}</dd>
        </div>
        <div>
          <dt>Input tokens</dt>
          <dd>{formatTokenCount(totals.inputTokens)}</dd>
        </div>
        <div>
          <dt>Output tokens</dt>
          <dd>{formatTokenCount(totals.outputTokens)}</dd>
        </div>
        <div>
          <dt>Cost</dt>
          <dd data-testid="usage-total-cost">
            {formatCost(totals.costUsd) ?? (
              <>
                {UNKNOWN_COST} <span className="usage-unknown">price unknown</span>
              </>
            )}
          </dd>
        </div>
      </dl>
      {days.length === 0 ? (
        <p className="settings-note">No model calls yet.</p>
      ) : (
        <table className="usage-table">
          <caption className="visually-hidden">Usage by {by}</caption>
          <thead>
            <tr>
              <th scope="col">{GROUPING_LABELS[by]}</th>
              <th scope="col">Calls</th>
              <th scope="col">Input</th>
              <th scope="col">Output</th>
              <th scope="col">Cost</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((day) => (
              <tr key={day.key}>
                <th scope="row">{day.label}</th>
                <td>{day.calls.toLocaleString('en-US')}</td>
                <td>{formatTokenCount(day.inputTokens)}</td>
                <td>{formatTokenCount(day.outputTokens)}</td>
                <td title={day.costUsd === null ? 'The price of a model used here is unknown' : undefined}>
                  {formatCost(day.costUsd) ?? UNKNOWN_COST}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <p className="settings-note">
        Costs use each provider’s list prices where Cairn knows them; local models cost nothing. A cost shows as{' '}
        {UNKNOWN_COST} when the price of a model used is unknown.
      </p>
    </div>
  );
}

const GROUPING_LABELS: Record<UsageGrouping, string> = { day: 'Day', session: 'Session', model: 'Model' };

/** By day, by session or by model: a radio group that reads like tabs. */
function UsageGroupingChoice({ by, onChange }: { by: UsageGrouping; onChange: (by: UsageGrouping) => void }) {
  return (
    <fieldset className="usage-grouping">
      <legend className="visually-hidden">Group usage by</legend>
      {(Object.keys(GROUPING_LABELS) as UsageGrouping[]).map((grouping) => (
        <label key={grouping} className={grouping === by ? 'is-selected' : undefined}>
          <input
            type="radio"
            name="usage-grouping"
            value={grouping}
            checked={grouping === by}
            onChange={() => onChange(grouping)}
          />
          By {GROUPING_LABELS[grouping].toLowerCase()}
        </label>
      ))}
    </fieldset>
  );
}
