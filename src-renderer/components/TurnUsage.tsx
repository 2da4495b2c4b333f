import type { TurnSummary } from '../../src-shared/model';
import { usageDetail, usageLabel } from '../format/usage';

/** What a turn cost: its tokens (and price where known), the detail on hover. */
export function TurnUsage({ turn }: { turn: TurnSummary }) {
  if (turn.usage === null) return null;
  return (
    <span className="turn-usage" data-testid="turn-usage" title={usageDetail(turn.usage)}>
      {usageLabel(turn.usage)}
    </span>
  );
}
