import { describe, expect, it } from 'vitest';
import { describeRunError, showsHostMessage } from './run-errors';

describe('describeRunError', () => {
  it('names every error class the host reports, with a remedy', () => {
    for (const code of [
      'bad_key',
      'model_not_found',
      'rate_limited',
      'context_too_long',
      'unreachable',
      'server_error',
      'usage_limit',
      'connection_unavailable',
      'storage_full',
      'storage_failed',
      'provider_timeout',
    ]) {
      const text = describeRunError(code, 'host words');
      expect(text.title).not.toBe('Failed');
      expect(text.sentence.length).toBeGreaterThan(20);
    }
    expect(describeRunError('bad_key', null).remedy).toBe('settings');
    expect(describeRunError('model_not_found', null).remedy).toBe('pick_model');
  });

  it('names the Codex failures, and offers Force stop for a quarantined session', () => {
    expect(describeRunError('agent_process_exited', 'exit').title).toBe('The agent stopped unexpectedly');
    expect(describeRunError('agent_start_failed', null).remedy).toBe('settings');
    expect(describeRunError('codex_quarantined', null).remedy).toBe('force_stop');
    expect(showsHostMessage('agent_process_exited', 'Its last output: boom')).toBe(true);
  });

  it('says an ACP agent is not installed, rather than that its connection is gone', () => {
    const message =
      'Claude is not installed. Install it in Settings → Connections (Install), or with: npm install --prefix /d/agents @agentclientprotocol/claude-agent-acp@0.101.0';
    expect(describeRunError('connection_unavailable', message)).toMatchObject({
      title: 'The agent is not installed',
      remedy: 'retry',
    });
    expect(describeRunError('connection_unavailable', 'The connection "x" is turned off in Settings.').title).toBe(
      'The connection is not available',
    );
    expect(showsHostMessage('connection_unavailable', message)).toBe(true);
  });

  it('falls back to the host message for codes it does not know', () => {
    expect(describeRunError('provider_error', 'Oops')).toEqual({ title: 'Failed', sentence: 'Oops', remedy: 'retry' });
    expect(describeRunError(null, null).sentence).toBe('The turn did not finish.');
    expect(showsHostMessage('provider_error', 'Oops')).toBe(false);
    expect(showsHostMessage('rate_limited', 'Retry in 7 s')).toBe(true);
  });
});
