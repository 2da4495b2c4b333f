import { useCallback, useEffect, useState } from 'react';
import '../../styles/storage.css';
import type { StorageUsage } from '../../../src-shared/storage-model';
import { useAppStore } from '../../state/store-context';
import { Spinner } from '../icons';

/** Settings → Storage (docs/long-sessions.md "Storage"): what the data directory holds, and Reclaim space. */
export function StoragePage() {
  const link = useAppStore((state) => state.hostLink);
  const [usage, setUsage] = useState<StorageUsage | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const reload = useCallback(async () => {
    const outcome = await link.invoke('storage.usage', {});
    if (outcome.ok) setUsage(outcome.result);
    else setProblem(outcome.error.message);
  }, [link]);
  useEffect(() => {
    void reload();
    return link.subscribe((event) => {
      if (event.kind === 'storage.changed' || event.kind === 'session.removed') void reload();
    });
  }, [link, reload]);

  const reclaim = async () => {
    setProblem(null);
    const outcome = await link.invoke('storage.reclaim', {});
    if (!outcome.ok) setProblem(outcome.error.message);
    await reload();
  };

  if (usage === null) {
    return problem === null ? (
      <div className="settings-loading">
        <Spinner label="Measuring storage" />
      </div>
    ) : (
      <p className="form-notice tone-error">{problem}</p>
    );
  }
  const rows: ReadonlyArray<readonly [string, number, string]> = [
    ['Database', usage.databaseBytes + usage.walBytes, `of which ${formatSize(usage.walBytes)} write-ahead log`],
    [
      'Offloaded tool output',
      usage.offloadBytes,
      `${usage.offloadFiles} ${usage.offloadFiles === 1 ? 'file' : 'files'}`,
    ],
    ['File checkpoints', usage.checkpointsBytes, 'shadow git repositories, one per workspace'],
    ['Worktrees', usage.worktreesBytes, 'sessions’ own checkouts'],
  ];
  const total = rows.reduce((sum, [, bytes]) => sum + bytes, 0);
  const running = usage.reclaim;
  const last = usage.lastReclaim;
  return (
    <div className="storage-page" data-testid="storage-settings">
      <section className="settings-section" aria-labelledby="storage-usage">
        <h4 id="storage-usage">Space used</h4>
        <table className="storage-table">
          <tbody>
            {rows.map(([label, bytes, detail]) => (
              <tr key={label}>
                <th scope="row">{label}</th>
                <td className="storage-size" data-testid="storage-size">
                  {formatSize(bytes)}
                </td>
                <td className="storage-detail">{detail}</td>
              </tr>
            ))}
            <tr className="storage-total">
              <th scope="row">Total</th>
              <td className="storage-size">{formatSize(total)}</td>
              <td />
            </tr>
          </tbody>
        </table>
        <p className="settings-note" data-testid="storage-delete-frees">
          Deleting a session frees its offloaded output that no other session uses; archiving keeps everything, so it
          can be undone.{' '}
          {usage.archivedOffloadBytes > 0
            ? `Deleting the archived sessions would free ${formatSize(usage.archivedOffloadBytes)} of offloaded output.`
            : 'No offloaded output belongs to archived sessions alone.'}
        </p>
      </section>
      <section className="settings-section" aria-labelledby="storage-reclaim">
        <h4 id="storage-reclaim">Reclaim space</h4>
        <p className="settings-note">
          Compacts the database: space left by deleted sessions goes back to the disk (about{' '}
          {formatSize(usage.freeBytes)} now). It runs only while no agent is working, and no agent starts until it
          finishes.
        </p>
        {running === null ? null : (
          <div className="storage-progress" role="status" data-testid="storage-reclaim-progress">
            <progress
              max={Math.max(1, running.expectedBytes)}
              value={Math.min(running.writtenBytes, running.expectedBytes)}
              aria-label="Compacting the database"
            />
            <span>
              Compacting… {formatSize(Math.min(running.writtenBytes, running.expectedBytes))} of{' '}
              {formatSize(running.expectedBytes)}
            </span>
          </div>
        )}
        {problem === null ? null : (
          <p className="form-notice tone-error" role="alert">
            {problem}
          </p>
        )}
        {running !== null || last === null ? null : (
          <p
            className={`form-notice ${last.ok ? 'tone-ok' : 'tone-error'}`}
            role="status"
            data-testid="storage-reclaim-result"
          >
            {last.ok ? `Done: the database is ${formatSize(last.freedBytes)} smaller.` : last.message}
          </p>
        )}
        <div>
          <button
            type="button"
            className="button button-small button-primary"
            disabled={running !== null}
            onClick={() => void reclaim()}
          >
            {running === null ? 'Reclaim space' : 'Compacting…'}
          </button>
        </div>
      </section>
    </div>
  );
}

function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  if (bytes < 1024 * 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1).replace(/\.0$/, '')} MB`;
  return `${(bytes / (1024 * 1024 * 1024)).toFixed(2).replace(/\.?0+$/, '')} GB`;
}
