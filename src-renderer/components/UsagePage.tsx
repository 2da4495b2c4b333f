import { useEffect } from 'react';
import { formatCost, formatTokenCount, UNKNOWN_COST } from '../format/usage';
import { useAppStore, useStoreApi } from '../state/store-context';
import { USAGE_DAYS } from '../state/usage-slice';
import { Spinner } from './icons';

/** Settings → Usage: tokens and cost by day over the last month. */
export function UsagePage() {
  const store = useStoreApi();
  const usage = useAppStore((state) => state.dailyUsage);

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
  return (
    <div className="usage-page">
      <h3 className="settings-heading">Last {USAGE_DAYS} days</h3>
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
          <caption className="visually-hidden">Usage by day</caption>
          <thead>
            <tr>
              <th scope="col">Day</th>
              <th scope="col">Calls</th>
              <th scope="col">Input</th>
              <th scope="col">Output</th>
              <th scope="col">Cost</th>
            </tr>
          </thead>
          <tbody>
            {[...days].reverse().map((day) => (
              <tr key={day.key}>
                <th scope="row">{day.label}</th>
                <td>{day.calls.toLocaleString('en-US')}</td>
                <td>{formatTokenCount(day.inputTokens)}</td>
                <td>{formatTokenCount(day.outputTokens)}</td>
                <td title={day.costUsd === null ? 'Price unknown for a model used that day' : undefined}>{formatCost(day.costUsd) ?? UNKNOWN_COST}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <p className="settings-note">
        Costs use each provider’s list prices where Cairn knows them; local models cost nothing. A cost shows as {UNKNOWN_COST} when the price of a model used is unknown.
      </p>
    </div>
  );
}
