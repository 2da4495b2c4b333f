import { openStores, type Stores } from '../src-main/storage/stores';

/** A word in a few messages of the whole record, and one in most of them: what the search figures look up. */
export const RARE_WORD = 'zeppelin';
export const COMMON_WORD = 'project';

const WORDS = [
  'budget',
  'garden',
  'release',
  'invoice',
  'travel',
  'recipe',
  'backup',
  'lecture',
  'schema',
  'deploy',
  'render',
  'parser',
  'meeting',
  'draft',
  'review',
  'cache',
];
/** Deltas a streamed answer is recorded in (its `assistant_text` events). */
const DELTAS_PER_ANSWER = 20;
/** Ledger events of one turn: opened, the message, a step, the deltas, usage, the end. */
const EVENTS_PER_TURN = DELTAS_PER_ANSWER + 5;

export interface BigRecord {
  readonly sessions: number;
  readonly events: number;
  readonly messages: number;
  /** Bytes of the messages' text, as typed and answered. */
  readonly textBytes: number;
  /** The largest session (10,000 messages) and a 100-message one, newest text of each for opening them. */
  readonly largest: { readonly sessionId: string; readonly newest: string };
  readonly small: { readonly sessionId: string; readonly newest: string };
}

/**
 * Fills a migrated, closed data directory with `sessions` sessions and about `events` ledger events
 * through the stores the host writes with — turns, runs, ledger events, transcript items — as
 * finished turns: a largest session of 10,000 messages, a 100-message one, the rest spread evenly.
 * The two named sessions are written last, so they lead the sidebar.
 */
export function seedBigRecord(dataDir: string, sessions: number, events: number): BigRecord {
  const stores = openStores(dataDir);
  try {
    const largestTurns = 5_000;
    const smallTurns = 50;
    const otherSessions = sessions - 2;
    const otherTurns = Math.max(
      1,
      Math.ceil((events / EVENTS_PER_TURN - largestTurns - smallTurns) / Math.max(1, otherSessions)),
    );
    let at = 1_700_000_000_000;
    const tally = { events: 0, messages: 0, textBytes: 0, rare: 0 };
    const writeSession = (index: number, title: string, turns: number): string => {
      const sessionId = `big-${index}`;
      stores.sessions.insert({
        sessionId,
        title,
        titleSource: 'user',
        workspacePath: null,
        connectionId: 'offline-demo',
        model: null,
        permissionMode: 'ask',
        now: at,
      });
      for (let turn = 1; turn <= turns; turn += 1) {
        at += 1_000;
        writeTurn(stores, sessionId, turn, at, tally);
      }
      return sessionId;
    };
    const batch = 50;
    for (let first = 0; first < otherSessions; first += batch)
      stores.transaction(() => {
        for (let index = first; index < Math.min(otherSessions, first + batch); index += 1)
          writeSession(index, `Notes on ${WORDS[index % WORDS.length]} ${index}`, otherTurns);
      });
    const small = stores.transaction(() => writeSession(otherSessions, 'A short session', smallTurns));
    let largest = '';
    // The largest session in transactions of 500 turns, as a long-lived session is written over time.
    largest = stores.transaction(() => writeSession(otherSessions + 1, 'The longest session', 0));
    for (let first = 1; first <= largestTurns; first += 500)
      stores.transaction(() => {
        for (let turn = first; turn < first + 500; turn += 1) {
          at += 1_000;
          writeTurn(stores, largest, turn, at, tally);
        }
      });
    return {
      sessions,
      events: tally.events,
      messages: tally.messages,
      textBytes: tally.textBytes,
      largest: { sessionId: largest, newest: userText(largest, largestTurns) },
      small: { sessionId: small, newest: userText(small, smallTurns) },
    };
  } finally {
    stores.close();
  }
}

/** One finished turn as the runtime records it: the turn and its run, its ledger events, two messages. */
function writeTurn(
  stores: Stores,
  sessionId: string,
  turn: number,
  at: number,
  tally: { events: number; messages: number; textBytes: number; rare: number },
): void {
  const turnId = `t${turn}`;
  const runId = `${sessionId}-r${turn}`;
  const question = userText(sessionId, turn);
  // About one answer in 10,000 carries the rare word; most carry the common one.
  const rare = (hash(runId) % 10_000 === 0 ? ` ${RARE_WORD}` : '') + (tally.rare === 0 ? ` ${RARE_WORD}` : '');
  if (rare !== '') tally.rare += 1;
  const deltas = Array.from(
    { length: DELTAS_PER_ANSWER },
    (_, index) => `${WORDS[(turn + index) % WORDS.length]} ${index % 3 === 0 ? COMMON_WORD : 'step'} `,
  );
  const answer = `${deltas.join('')}done${rare}.`;
  stores.turns.insertTurn({ sessionId, turnId, origin: 'user', text: question, maxSteps: 25, runId, now: at });
  const userItem = `${runId}-u`;
  const answerItem = `${runId}-a`;
  stores.ledger.append(
    runId,
    [
      { kind: 'run_opened', payload: { kind: 'initial' } },
      { kind: 'user_message', payload: { itemId: userItem, text: question } },
      { kind: 'step_started', payload: { step: 1 } },
      ...deltas.map((text) => ({ kind: 'assistant_text' as const, payload: { itemId: answerItem, text } })),
      {
        kind: 'usage',
        payload: { model: 'scripted', inputTokens: 120, outputTokens: 60, cachedInputTokens: 0, reasoningTokens: 0 },
      },
      { kind: 'run_terminal', payload: { status: 'completed', terminalReason: 'end_turn' } },
    ],
    at,
  );
  const position = stores.sessions.reservePositions(sessionId, 2);
  const item = { sessionId, turnId, runId, state: 'final' as const, now: at };
  stores.transcript.append({ ...item, itemId: userItem, kind: 'user_message', text: question }, position);
  stores.transcript.append({ ...item, itemId: answerItem, kind: 'assistant_message', text: answer }, position + 1);
  stores.turns.setRunStatus(runId, { status: 'completed', terminalReason: 'end_turn', now: at + 500 });
  stores.sessions.touch(sessionId, at + 500);
  tally.events += EVENTS_PER_TURN;
  tally.messages += 2;
  tally.textBytes += Buffer.byteLength(question) + Buffer.byteLength(answer);
}

function userText(sessionId: string, turn: number): string {
  return `question ${turn} of ${sessionId}: how is the ${WORDS[turn % WORDS.length]} going?`;
}

function hash(text: string): number {
  let value = 2166136261;
  for (let index = 0; index < text.length; index += 1) value = Math.imul(value ^ text.charCodeAt(index), 16777619);
  return value >>> 0;
}
