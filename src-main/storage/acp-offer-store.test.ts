import { describe, expect, it } from 'vitest';
import { NO_ACP_OFFERS } from '../../src-shared/acp-model';
import { tempDataDir } from '../testing/host-fixture';
import { createAcpOfferStore } from './acp-offer-store';
import { openDatabase } from './database';

describe('what ACP agents offer, kept per session', () => {
  it('keeps the parts the agent last gave and the person’s choices; goes with its session', () => {
    const temp = tempDataDir();
    const db = openDatabase(temp.dir);
    db.prepare(
      "INSERT INTO sessions (session_id, title, title_source, connection_id, permission_mode, revision, created_at, updated_at) VALUES ('s1', 'S', 'user', 'c1', 'ask', 1, 0, 0)",
    ).run();
    const store = createAcpOfferStore(db);
    expect(store.offers('s1')).toEqual(NO_ACP_OFFERS);
    const commands = [{ name: 'review', description: 'Review', hint: null }];
    const mode = {
      id: 'mode',
      kind: 'mode' as const,
      name: 'Mode',
      category: 'mode',
      current: 'default',
      choices: [{ value: 'default', name: 'Manual', description: null }],
    };
    store.saveOffered('s1', { commands }, 1);
    store.saveOffered('s1', { selectors: [mode] }, 2);
    store.choose('s1', 'mode', 'default', 3);
    expect(store.offers('s1')).toEqual({ commands, selectors: [mode], chosen: { mode: 'default' } });
    // A damaged value reads as nothing offered rather than failing the session.
    db.prepare("UPDATE acp_session_offers SET commands = 'not json' WHERE session_id = 's1'").run();
    expect(store.offers('s1').commands).toEqual([]);
    db.prepare("DELETE FROM sessions WHERE session_id = 's1'").run();
    expect(db.prepare('SELECT COUNT(*) AS n FROM acp_session_offers').get()).toEqual({ n: 0 });
    db.close();
    temp.cleanup();
  });
});
