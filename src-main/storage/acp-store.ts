import type { Db } from './database';

/** Where an ACP session stands: the agent session it drives, the agent process last started for it, and the last update applied. */
export interface AcpResumePoint {
  readonly sessionId: string;
  readonly acpSessionId: string;
  readonly instanceId: string;
  readonly pid: number | null;
  readonly agentName: string | null;
  readonly agentTitle: string | null;
  readonly agentVersion: string | null;
  readonly lastSeq: number;
  readonly updatedAt: number;
}

export interface AcpBinding {
  readonly acpSessionId: string;
  readonly instanceId: string;
  readonly pid: number | null;
  readonly agentName: string | null;
  readonly agentTitle: string | null;
  readonly agentVersion: string | null;
}

/**
 * ACP resume points. Each agent process instance numbers what it says; an update is applied at most
 * once: `claim` answers false for a number already applied and for an instance that is no longer the
 * session's (a replaced agent's late updates).
 */
export interface AcpStore {
  resumePoint(sessionId: string): AcpResumePoint | null;
  /** Binds the session to an agent session and a (new) agent process instance. */
  bind(sessionId: string, binding: AcpBinding, now: number): AcpResumePoint;
  claim(sessionId: string, instanceId: string, seq: number): boolean;
  /** The Cairn sessions of a connection bound to the agent session `acpSessionId` (an import's, or one Cairn started). */
  boundTo(connectionId: string, acpSessionId: string): string[];
  forget(sessionId: string): void;
}

interface Row {
  session_id: string;
  acp_session_id: string;
  instance_id: string;
  pid: number | null;
  agent_name: string | null;
  agent_title: string | null;
  agent_version: string | null;
  last_seq: number;
  updated_at: number;
}

export function createAcpStore(db: Db): AcpStore {
  const get = db.prepare<[string], Row>('SELECT * FROM acp_checkpoints WHERE session_id = ?');
  const upsert = db.prepare(`
    INSERT INTO acp_checkpoints (session_id, acp_session_id, instance_id, pid, agent_name, agent_title, agent_version, last_seq, updated_at)
      VALUES (@sessionId, @acpSessionId, @instanceId, @pid, @agentName, @agentTitle, @agentVersion, 0, @now)
    ON CONFLICT (session_id) DO UPDATE SET acp_session_id = excluded.acp_session_id, instance_id = excluded.instance_id, pid = excluded.pid,
      agent_name = excluded.agent_name, agent_title = excluded.agent_title, agent_version = excluded.agent_version, last_seq = 0, updated_at = excluded.updated_at`);
  const advance = db.prepare(
    'UPDATE acp_checkpoints SET last_seq = ? WHERE session_id = ? AND instance_id = ? AND last_seq < ?',
  );
  const remove = db.prepare('DELETE FROM acp_checkpoints WHERE session_id = ?');
  const bound = db.prepare<[string, string], { session_id: string }>(
    `SELECT c.session_id FROM acp_checkpoints c JOIN sessions s ON s.session_id = c.session_id
     WHERE c.acp_session_id = ? AND s.connection_id = ? ORDER BY s.created_at`,
  );
  const toResumePoint = (row: Row): AcpResumePoint => ({
    sessionId: row.session_id,
    acpSessionId: row.acp_session_id,
    instanceId: row.instance_id,
    pid: row.pid,
    agentName: row.agent_name,
    agentTitle: row.agent_title,
    agentVersion: row.agent_version,
    lastSeq: row.last_seq,
    updatedAt: row.updated_at,
  });
  return {
    resumePoint(sessionId) {
      const row = get.get(sessionId);
      return row === undefined ? null : toResumePoint(row);
    },
    bind(sessionId, binding, now) {
      upsert.run({ sessionId, ...binding, now });
      const row = get.get(sessionId);
      if (row === undefined) throw new Error(`ACP resume point of ${sessionId} vanished`);
      return toResumePoint(row);
    },
    claim: (sessionId, instanceId, seq) => advance.run(seq, sessionId, instanceId, seq).changes === 1,
    boundTo: (connectionId, acpSessionId) => bound.all(acpSessionId, connectionId).map((row) => row.session_id),
    forget(sessionId) {
      remove.run(sessionId);
    },
  };
}
