import type { ConnectionLastTest, ConnectionRecord } from '../../src-shared/connection-model';
import type { ConnectionCheck } from '../state/catalog-slice';
import { whenLabel } from './dates';

/**
 * The Test a connection's row and page show: this window's own when it is the newer, else the one the
 * host kept on the connection (so a reload or a restart still shows it). Null: never tested.
 */
export function latestTest(
  connection: ConnectionRecord,
  check: ConnectionCheck | undefined,
): ConnectionLastTest | null {
  const own = check?.state === 'done' ? check.result : null;
  const kept = connection.lastTest;
  if (own === null) return kept;
  if (kept === null) return own;
  return own.testedAt >= kept.testedAt ? own : kept;
}

/** "Tested 2 min ago", in the person's locale. */
export function testedWhen(test: ConnectionLastTest, now: number, locale?: string): string {
  return `Tested ${whenLabel(test.testedAt, now, locale === undefined ? {} : { locale })}`;
}
