import { seedLongSessionRows } from '../src-main/testing/long-session-rows';
import type { CairnHost } from './cairn-host';

/**
 * A session of `turns` finished turns (2 × turns messages), written as rows into the host's data
 * directory while it is stopped (then it starts again on the same port): for a journey about showing a
 * long session, where running the turns through the host would take minutes on a busy machine.
 */
export async function writeLongSession(cairn: CairnHost, turns: number): Promise<string> {
  const { session } = await cairn.call('session.create', { title: `Long session (${turns * 2} messages)` });
  await cairn.stop();
  seedLongSessionRows(cairn.dataDir, session.sessionId, null, turns);
  await cairn.start();
  return session.sessionId;
}

/**
 * Seeds a session with `turns` turns (2 × turns messages) through operations: follow-ups queued with
 * turn.message.submit, each a one-chunk `/stream`, which the host runs back to back.
 */
export async function seedLongSession(cairn: CairnHost, turns: number): Promise<string> {
  const { session } = await cairn.call('session.create', { title: `Long session (${turns * 2} messages)` });
  const batch = 200;
  for (let start = 1; start <= turns; start += batch) {
    const submissions: Array<Promise<unknown>> = [];
    for (let index = start; index < Math.min(start + batch, turns + 1); index += 1) {
      submissions.push(
        cairn.call('turn.message.submit', {
          sessionId: session.sessionId,
          messageId: `seed-${index}`,
          text: `/stream 1 0 seed message ${index}`,
          placement: 'next_turn',
        }),
      );
    }
    await Promise.all(submissions);
  }
  for (;;) {
    const { turn } = await cairn
      .call('turn.query', { sessionId: session.sessionId, turnId: `seed-${turns}` })
      .catch(() => ({ turn: null }));
    if (turn?.status === 'completed') break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return session.sessionId;
}
