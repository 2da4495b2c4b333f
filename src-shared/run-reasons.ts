/**
 * Why a run ended (its terminal reason: a stop source or a failure class), in words a person reads.
 * Codes never reach the screen: an unknown one reads as "it ended early".
 */
const REASONS: Readonly<Record<string, string>> = {
  // Stop sources.
  stop_button: 'you pressed Stop',
  keyboard: 'you pressed Esc',
  editor_stop: 'Stop was pressed in the editor (cairn acp)',
  superseded: 'you sent a new message instead of answering',
  session_archived: 'the session was archived',
  session_removed: 'the session was deleted',
  goal_cleared: 'the goal was cleared',
  goal_paused: 'the goal was paused',
  workhub_stop: 'the WorkHub stopped it',
  workhub_correct: 'the WorkHub moved this request to another session',
  parent_stopped: 'the agent that started it was stopped',
  stopped_by_parent: 'the agent that started it stopped it',
  tree_failed: 'its agent tree was stopped after a failure',
  // Endings that are not a stop.
  app_restarted: 'the app restarted',
  app_shutdown: 'the app was closed',
  end_turn: 'it finished',
  max_steps: 'it reached the step limit',
  interaction_answered: 'it waited for an answer',
  internal_failure: 'Cairn ran into an internal error',
  connection_unavailable: 'the session’s connection was not available',
  storage_full: 'the disk was full',
  storage_failed: 'Cairn could not save to its database',
  // Provider failure classes.
  bad_key: 'the provider refused the API key',
  model_not_found: 'the provider does not offer the model',
  rate_limited: 'the provider was limiting requests',
  context_too_long: 'the conversation was too long for the model',
  unreachable: 'the provider could not be reached',
  server_error: 'the provider had a problem on its side',
  usage_limit: 'the account’s usage limit was reached',
  provider_error: 'the provider answered with an error',
  provider_timeout: 'the provider took too long to answer',
  compaction_failed: 'the earlier conversation could not be summarised',
  // Native agent (ACP) endings.
  agent_start_failed: 'the agent could not start',
  agent_auth_required: 'the agent wants you to sign in first',
  agent_process_exited: 'the agent’s process stopped unexpectedly',
  agent_quarantined: 'the agent’s previous process could not be confirmed stopped',
  agent_refused: 'the agent refused',
  agent_cancelled: 'the agent cancelled the turn on its own',
  max_tokens: 'the agent reached its token limit',
  max_turn_requests: 'the agent reached its limit of requests for one turn',
};

export function describeEndReason(reason: string | null): string {
  return (reason === null ? undefined : REASONS[reason]) ?? 'it ended early';
}

/**
 * The marker a resumed run leaves in the transcript (a notice whose data holds `resumed`): where the
 * turn picked up again, and why the attempt before it ended. It is not part of the answer: the answer
 * reads on across it, and copies and exports leave it out.
 */
export function resumeNoticeText(reason: string | null): string {
  return `Resumed: the previous attempt ended because ${describeEndReason(reason)}.`;
}

/** Whether a transcript item is a resumed run's marker. */
export function isResumeNotice(item: {
  readonly kind: string;
  readonly data: Readonly<Record<string, unknown>> | null;
}): boolean {
  return item.kind === 'notice' && typeof item.data?.resumed === 'object' && item.data.resumed !== null;
}
