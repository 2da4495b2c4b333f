/** A failed run's error class, said plainly, with what the person can do about it. */

export type RunErrorRemedy = 'retry' | 'settings' | 'pick_model' | 'force_stop';

export interface RunErrorText {
  readonly title: string;
  readonly sentence: string;
  /** Besides Retry (always offered), the most useful next step. */
  readonly remedy: RunErrorRemedy;
}

const KNOWN: Readonly<Record<string, RunErrorText>> = {
  bad_key: {
    title: 'The API key was refused',
    sentence: 'The provider did not accept the key stored for this connection. Check or replace it in Settings.',
    remedy: 'settings',
  },
  model_not_found: {
    title: 'Model not found',
    sentence: 'The provider does not offer this model (any more). Pick another model for this session.',
    remedy: 'pick_model',
  },
  rate_limited: {
    title: 'Rate limited',
    sentence: 'The provider is limiting requests right now. Wait a moment, then retry.',
    remedy: 'retry',
  },
  context_too_long: {
    title: 'The conversation is too long for this model',
    sentence:
      'It no longer fits in the model’s context window. Pick a model with a larger window, or start a new session.',
    remedy: 'pick_model',
  },
  unreachable: {
    title: 'The connection to the provider failed',
    sentence:
      'The provider’s server could not be reached, or the connection broke off before the answer was complete. Check the network or the connection’s address, then retry.',
    remedy: 'settings',
  },
  provider_timeout: {
    title: 'The provider took too long',
    sentence:
      'Cairn stopped waiting once the connection’s timeout ran out. Retry, or allow more time in the connection’s settings.',
    remedy: 'settings',
  },
  server_error: {
    title: 'The provider had a problem',
    sentence: 'Its server answered with an error on its side. Retrying usually helps.',
    remedy: 'retry',
  },
  usage_limit: {
    title: 'Usage limit reached',
    sentence:
      'The account’s quota or spending limit is used up. Check the plan with the provider, or pick another connection.',
    remedy: 'pick_model',
  },
  storage_full: {
    title: 'The disk is full',
    sentence: 'Cairn could not save this turn, so it stopped it. Free some disk space, then retry.',
    remedy: 'retry',
  },
  storage_failed: {
    title: 'Cairn could not save this turn',
    sentence: 'Writing to its database failed, so it stopped the turn. Check the disk and the data folder, then retry.',
    remedy: 'retry',
  },
  agent_process_exited: {
    title: 'The agent stopped unexpectedly',
    sentence:
      'Its process ended during the turn; how it ended, and what it said last, are below. Retry starts it again and carries on.',
    remedy: 'retry',
  },
  agent_start_failed: {
    title: 'Codex could not start',
    sentence: 'Cairn could not start the Codex app-server. Check the Codex connection in Settings.',
    remedy: 'settings',
  },
  agent_auth_required: {
    title: 'Sign in to the agent',
    sentence: 'The agent wants you signed in before it starts. Sign in below; the turn is retried once you are.',
    remedy: 'retry',
  },
  thread_unavailable: {
    title: 'Codex could not resume this session’s thread',
    sentence:
      'Cairn did not move the session to a new thread on its own. Choose above the conversation: start a new Codex thread from a summary of this conversation, or retry the same thread.',
    remedy: 'retry',
  },
  codex_quarantined: {
    title: 'The previous Codex process may still be running',
    sentence:
      'It could not be confirmed stopped, so no second one starts on the same thread. Force stop ends it and retries.',
    remedy: 'force_stop',
  },
  connection_unavailable: {
    title: 'The connection is not available',
    sentence: 'This session’s connection was removed or turned off. Choose another connection for it, then retry.',
    remedy: 'pick_model',
  },
  compaction_failed: {
    title: 'The earlier conversation could not be summarised',
    sentence:
      'The conversation had grown too long to send whole, and the model’s summary of its older part failed. Nothing was lost; retry to summarise and continue.',
    remedy: 'retry',
  },
};

/** The human text for a run's `errorCode`; unknown codes fall back to the host's own message. */
export function describeRunError(errorCode: string | null, errorMessage: string | null): RunErrorText {
  if (errorCode === 'connection_unavailable' && agentNotInstalled(errorMessage)) return AGENT_NOT_INSTALLED;
  const known = errorCode === null ? undefined : KNOWN[errorCode];
  if (known !== undefined) return known;
  return { title: 'Failed', sentence: errorMessage ?? 'The turn did not finish.', remedy: 'retry' };
}

const AGENT_NOT_INSTALLED: RunErrorText = {
  title: 'The agent is not installed',
  sentence: 'This session runs an ACP agent whose program Cairn could not find. Install it, then retry.',
  remedy: 'retry',
};

/** A preset ACP agent's run failed because its package is not installed (the host's message says so, and how to install it). */
export function agentNotInstalled(errorMessage: string | null): boolean {
  return errorMessage?.includes(' is not installed. Install it in Settings') === true;
}

/** Whether the host's message says more than the sentence (so it is worth showing as detail). */
export function showsHostMessage(errorCode: string | null, errorMessage: string | null): boolean {
  return errorMessage !== null && errorMessage.trim() !== '' && errorCode !== null && KNOWN[errorCode] !== undefined;
}
