import type { Migration } from './migration';

/**
 * What became of each WorkHub proposal: an action now names the request it acted on and keeps a
 * refusal met while trying (so a replay answers it too), and each routed request has at most one
 * decision (done, failed or cancelled), shown as a notice in the request's turn of the WorkHub.
 *
 * Acts recorded before this are carried over: the app named them "<request id>.<8 hex digits>", so
 * each request's first recorded act becomes its `done` decision, with its notice.
 */
export const migration009WorkHubDecisions: Migration = {
  version: 9,
  name: 'workhub-decisions',
  up: `
    ALTER TABLE workhub_actions ADD COLUMN request_id TEXT;
    ALTER TABLE workhub_actions ADD COLUMN error TEXT;

    CREATE TABLE workhub_decisions (
      request_id TEXT PRIMARY KEY,
      status TEXT NOT NULL CHECK (status IN ('done', 'failed', 'cancelled')),
      decision TEXT NOT NULL,
      created_at INTEGER NOT NULL
    ) STRICT;

    UPDATE workhub_actions SET request_id = substr(action_id, 1, length(action_id) - 9)
    WHERE request_id IS NULL AND length(action_id) > 9 AND substr(action_id, -9, 1) = '.'
      AND EXISTS (
        SELECT 1 FROM transcript_items AS item
        WHERE item.session_id = 'workhub' AND item.kind = 'proposal'
          AND item.turn_id = substr(workhub_actions.action_id, 1, length(workhub_actions.action_id) - 9)
      );

    INSERT INTO workhub_decisions (request_id, status, decision, created_at)
    SELECT action.request_id, 'done',
           json_object('status', 'done', 'actionId', action.action_id, 'proposal', json(action.proposal), 'result', json(action.result)),
           action.created_at
    FROM workhub_actions AS action
    WHERE action.request_id IS NOT NULL
      AND action.rowid = (
        SELECT first.rowid FROM workhub_actions AS first WHERE first.request_id = action.request_id ORDER BY first.created_at, first.rowid LIMIT 1
      );

    INSERT INTO transcript_items (session_id, position, item_id, turn_id, run_id, kind, text, state, created_at, data)
    SELECT 'workhub',
           (SELECT next_position FROM sessions WHERE session_id = 'workhub') + ROW_NUMBER() OVER (ORDER BY decision.created_at, decision.request_id) - 1,
           'decision-' || decision.request_id, decision.request_id, turn.latest_run_id, 'notice', 'Done.', 'final', decision.created_at,
           json_object('workhubDecision', json(decision.decision), 'requestId', decision.request_id)
    FROM workhub_decisions AS decision
    JOIN turns AS turn ON turn.session_id = 'workhub' AND turn.turn_id = decision.request_id;

    UPDATE sessions
    SET next_position = next_position + (SELECT count(*) FROM workhub_decisions)
    WHERE session_id = 'workhub';
  `,
};
