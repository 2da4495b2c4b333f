import { useEffect, useState } from 'react';
import { DEFAULT_COMPACTION_THRESHOLD } from '../../src-shared/compaction-model';
import { useAppStore, useStoreApi } from '../state/store-context';

/** The compaction threshold, for every connection: at what share of a model's window older turns are summarised. */
export function CompactionThresholdRow() {
  const store = useStoreApi();
  const settings = useAppStore((state) => state.compactionSettings);
  const percent = Math.round((settings?.threshold ?? DEFAULT_COMPACTION_THRESHOLD) * 100);
  const [text, setText] = useState(String(percent));
  const [notice, setNotice] = useState<{ tone: 'ok' | 'error'; text: string } | null>(null);
  useEffect(() => {
    void store.getState().loadCompactionSettings();
  }, [store]);
  useEffect(() => setText(String(percent)), [percent]);

  const save = () => {
    const value = Number(text);
    if (!Number.isInteger(value) || value < 30 || value > 95) {
      setNotice({ tone: 'error', text: 'Give a whole percentage from 30 to 95.' });
      return;
    }
    setNotice(null);
    void store
      .getState()
      .setCompactionThreshold(value / 100)
      .then((message) =>
        setNotice(message === null ? { tone: 'ok', text: 'Saved.' } : { tone: 'error', text: message }),
      );
  };

  return (
    <>
      <div className="section-row">
        <label className="field-inline">
          <span>Summarise older turns at (% of the window, every connection)</span>
          <input
            className="input"
            type="number"
            min={30}
            max={95}
            step={5}
            value={text}
            onChange={(event) => setText(event.target.value)}
          />
        </label>
        <button type="button" className="button" onClick={save}>
          Save threshold
        </button>
      </div>
      {notice === null ? null : (
        <p className={`form-notice tone-${notice.tone}`} role={notice.tone === 'error' ? 'alert' : 'status'}>
          {notice.text}
        </p>
      )}
    </>
  );
}
