import { describe, expect, it } from 'vitest';
import type { AcpInstallState } from '../../src-shared/acp-install-model';
import type { ChangeEvent } from '../../src-shared/events';
import { reduceAcpInstalls } from './acp-installs-slice';

const install = (status: AcpInstallState['status'], updatedAt: number, output: string[] = []): AcpInstallState => ({
  kind: 'claude',
  packageSpec: '@agentclientprotocol/claude-agent-acp@0.101.0',
  sizeHint: '≈360 MB',
  status,
  installedVersion: status === 'installed' ? '0.101.0' : null,
  location: status === 'installed' ? 'data_dir' : null,
  error: null,
  output,
  updatedAt,
});
const changed = (seq: number, state: AcpInstallState): ChangeEvent => ({
  seq,
  hostEpoch: 'e',
  kind: 'acp.install.changed',
  install: state,
});

describe('ACP agent installs', () => {
  it('follows an install line by line to its end, and an older state never replaces a newer one', () => {
    const running = reduceAcpInstalls(null, [
      changed(1, install('installing', 10, ['npm install …'])),
      changed(2, install('installing', 11, ['npm install …', 'npm http fetch GET 200'])),
    ]);
    expect(running?.claude?.output).toEqual(['npm install …', 'npm http fetch GET 200']);
    const done = reduceAcpInstalls(running, [changed(3, install('installed', 20))]);
    expect(done?.claude).toMatchObject({ status: 'installed', installedVersion: '0.101.0' });
    // The answer to the Install click, made before the end, arriving after it.
    expect(reduceAcpInstalls(done, [changed(4, install('installing', 12))])?.claude?.status).toBe('installed');
  });

  it('returns the same object when no event concerns installs', () => {
    const state = reduceAcpInstalls(null, [changed(1, install('not_installed', 1))]);
    expect(reduceAcpInstalls(state, [{ seq: 2, hostEpoch: 'e', kind: 'session.removed', sessionId: 's' }])).toBe(state);
  });
});
