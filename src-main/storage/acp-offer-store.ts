import type { AcpCommand, AcpSelector, AcpSessionOffers } from '../../src-shared/acp-model';
import { NO_ACP_OFFERS } from '../../src-shared/acp-model';
import type { Db } from './database';

/**
 * What each ACP agent offers in its session (its commands, modes and config options, as it last said)
 * and the person's choices among them: shown after a reload or a restart, before the agent runs again.
 */
export interface AcpOfferStore {
  offers(sessionId: string): AcpSessionOffers;
  /** The agent said what it offers now: the parts given replace what was kept. */
  saveOffered(
    sessionId: string,
    offered: { readonly commands?: readonly AcpCommand[]; readonly selectors?: readonly AcpSelector[] },
    now: number,
  ): AcpSessionOffers;
  /** The person chose `value` for the selector `selectorId`. */
  choose(sessionId: string, selectorId: string, value: string, now: number): AcpSessionOffers;
}

interface Row {
  commands: string;
  selectors: string;
  chosen: string;
}

function parsed<T>(json: string, fallback: T): T {
  try {
    return JSON.parse(json) as T;
  } catch {
    return fallback;
  }
}

export function createAcpOfferStore(db: Db): AcpOfferStore {
  const get = db.prepare<[string], Row>(
    'SELECT commands, selectors, chosen FROM acp_session_offers WHERE session_id = ?',
  );
  const upsert = db.prepare(`
    INSERT INTO acp_session_offers (session_id, commands, selectors, chosen, updated_at)
      VALUES (@sessionId, @commands, @selectors, @chosen, @now)
    ON CONFLICT (session_id) DO UPDATE SET commands = excluded.commands, selectors = excluded.selectors,
      chosen = excluded.chosen, updated_at = excluded.updated_at`);
  const offers = (sessionId: string): AcpSessionOffers => {
    const row = get.get(sessionId);
    if (row === undefined) return NO_ACP_OFFERS;
    return {
      commands: parsed(row.commands, []),
      selectors: parsed(row.selectors, []),
      chosen: parsed(row.chosen, {}),
    };
  };
  const save = (sessionId: string, next: AcpSessionOffers, now: number): AcpSessionOffers => {
    upsert.run({
      sessionId,
      commands: JSON.stringify(next.commands),
      selectors: JSON.stringify(next.selectors),
      chosen: JSON.stringify(next.chosen),
      now,
    });
    return next;
  };
  return {
    offers,
    saveOffered: (sessionId, offered, now) => save(sessionId, { ...offers(sessionId), ...offered }, now),
    choose(sessionId, selectorId, value, now) {
      const current = offers(sessionId);
      return save(sessionId, { ...current, chosen: { ...current.chosen, [selectorId]: value } }, now);
    },
  };
}
