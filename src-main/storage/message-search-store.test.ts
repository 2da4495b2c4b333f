import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDataDir } from '../testing/host-fixture';
import { openDatabase, type Db } from './database';
import {
  createMessageSearchStore,
  matchExpression,
  snippetParts,
  type MessageSearchStore,
} from './message-search-store';
import { MIGRATIONS } from './migrations';
import { createTranscriptStore, type TranscriptStore } from './transcript-store';

describe('message search store', () => {
  let db: Db;
  let search: MessageSearchStore;
  let transcript: TranscriptStore;
  let cleanup: () => void;
  let position = 0;

  beforeEach(() => {
    const temp = tempDataDir();
    cleanup = temp.cleanup;
    db = openDatabase(temp.dir, { migrations: MIGRATIONS });
    const session = db.prepare(
      "INSERT INTO sessions (session_id, title, title_source, connection_id, permission_mode, archived, revision, created_at, updated_at) VALUES (?, ?, 'user', 'c', 'ask', ?, 1, 0, 0)",
    );
    session.run('s1', 'Garden', 0);
    session.run('s2', 'Old plans', 1);
    session.run('workhub', 'WorkHub', 0);
    search = createMessageSearchStore(db);
    transcript = createTranscriptStore(db);
  });
  afterEach(() => {
    db.close();
    cleanup();
  });

  const add = (
    sessionId: string,
    itemId: string,
    kind: 'user_message' | 'assistant_message' | 'tool_result',
    text: string,
    state: 'final' | 'streaming' = 'final',
  ) =>
    transcript.append({ sessionId, itemId, turnId: 't', runId: `r-${itemId}`, kind, text, state, now: 5 }, position++);
  const find = (text: string, includeArchived = false) =>
    search.search({ words: text.split(' '), includeArchived, excludeSessionId: 'workhub', limit: 20 });

  it('finds a word from a message body, with the snippet marking the match', () => {
    add('s1', 'i1', 'user_message', 'Please water the tomatoes before noon');
    add('s1', 'i2', 'assistant_message', 'I will water them.');
    const hits = find('tomatoes');
    expect(hits.map((hit) => hit.itemId)).toEqual(['i1']);
    expect(hits[0]).toMatchObject({ sessionId: 's1', sessionTitle: 'Garden', kind: 'user_message', archived: false });
    expect(hits[0]!.snippet).toEqual([
      { text: 'Please water the ', hit: false },
      { text: 'tomatoes', hit: true },
      { text: ' before noon', hit: false },
    ]);
  });

  it('indexes a streamed reply once its stream ends, not before', () => {
    add('s1', 'i1', 'assistant_message', 'The cucu', 'streaming');
    transcript.appendText('i1', 'mbers are ready');
    expect(find('cucumbers')).toEqual([]);
    transcript.finalizeRun('r-i1');
    expect(find('cucumbers').map((hit) => hit.itemId)).toEqual(['i1']);
  });

  it('leaves out tool output, the WorkHub, and archived sessions unless asked', () => {
    add('s1', 'i1', 'tool_result', 'zucchini');
    add('workhub', 'i2', 'user_message', 'zucchini');
    add('s2', 'i3', 'assistant_message', 'zucchini soup');
    expect(find('zucchini')).toEqual([]);
    expect(find('zucchini', true).map((hit) => [hit.itemId, hit.archived])).toEqual([['i3', true]]);
  });

  it('matches word starts and all words, and takes punctuation literally', () => {
    add('s1', 'i1', 'user_message', 'Run `npm test` in the cairn repo');
    add('s1', 'i2', 'user_message', 'npm install only');
    expect(find('npm te').map((hit) => hit.itemId)).toEqual(['i1']);
    expect(find('"npm* OR (')).toEqual([]);
    expect(matchExpression(['a"b', 'c'])).toBe('"a""b" "c"*');
    expect(matchExpression([' ', ''])).toBeNull();
  });

  it('drops a session’s messages from the index when the session is removed', () => {
    add('s1', 'i1', 'user_message', 'marigold');
    db.prepare("DELETE FROM sessions WHERE session_id = 's1'").run();
    expect(find('marigold')).toEqual([]);
    expect(db.prepare('SELECT count(*) FROM message_search').pluck().get()).toBe(0);
  });

  it('ranks a word found in very many messages among its newest matches only, and a rarer one over all', () => {
    const newestThree = createMessageSearchStore(db, 3);
    const findIn = (store: MessageSearchStore, text: string) =>
      store
        .search({ words: [text], includeArchived: false, excludeSessionId: 'workhub', limit: 20 })
        .map((hit) => hit.itemId);
    // The oldest message says the word most often (the best bm25 rank); four newer ones once each.
    add('s1', 'old', 'user_message', 'basil basil basil basil');
    for (const itemId of ['n1', 'n2', 'n3', 'n4'])
      add('s1', itemId, 'user_message', `basil and ${'filler '.repeat(20)}`);
    expect(findIn(search, 'basil')[0]).toBe('old');
    expect(findIn(newestThree, 'basil').sort()).toEqual(['n2', 'n3', 'n4']);
    add('s1', 'rare', 'user_message', 'oregano once');
    expect(findIn(newestThree, 'oregano')).toEqual(['rare']);
  });

  it('splits a marked snippet into parts', () => {
    expect(snippetParts('a \u0002b\u0003 c\n\nd')).toEqual([
      { text: 'a ', hit: false },
      { text: 'b', hit: true },
      { text: ' c d', hit: false },
    ]);
  });
});
