import { meterDetail, meterFill, meterLabel } from '../format/context-meter';
import { useAppStore } from '../state/store-context';

/** The header's context meter: used of the model's window, what fills it on hover. Absent before the session's first model request. */
export function ContextMeterBadge({ sessionId }: { sessionId: string }) {
  const meter = useAppStore((state) => state.contextMeters[sessionId]);
  if (meter === undefined) return null;
  const fill = meterFill(meter);
  const level = fill >= 0.9 ? 'full' : fill >= 0.7 ? 'high' : 'ok';
  const detail = meterDetail(meter);
  return (
    <span
      className="context-meter"
      data-testid="context-meter"
      data-level={level}
      data-used={meter.used}
      title={detail}
      aria-label={detail}
      role="img"
    >
      <span className="context-meter-bar" aria-hidden="true">
        <span className="context-meter-fill" style={{ width: `${Math.round(fill * 100)}%` }} />
      </span>
      <span className="context-meter-label" aria-hidden="true">
        {meterLabel(meter)}
      </span>
    </span>
  );
}
