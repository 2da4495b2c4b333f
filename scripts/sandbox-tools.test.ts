import { describe, expect, it } from 'vitest';
import { planSandboxTools } from './sandbox-tools.mjs';

const debianRoot = { platform: 'linux', missing: ['bwrap', 'socat'], isRoot: true, isDebian: true, hasAptGet: true };

describe('planSandboxTools', () => {
  it('has nothing to do when both tools are there, or off Linux', () => {
    expect(planSandboxTools({ ...debianRoot, missing: [] })).toEqual({ kind: 'ready' });
    expect(planSandboxTools({ ...debianRoot, platform: 'darwin' })).toEqual({ kind: 'ready' });
  });

  it('as root on Debian with apt-get, installs exactly the missing packages, saying so', () => {
    const plan = planSandboxTools({ ...debianRoot, missing: ['socat'] });
    expect(plan).toMatchObject({ kind: 'apt-install', note: expect.stringContaining("Installing Debian's socat") });
    expect(plan.kind === 'apt-install' ? plan.commands.at(-1) : null).toEqual([
      'apt-get',
      'install',
      '-y',
      '-qq',
      '--no-install-recommends',
      'socat',
    ]);
  });

  it('elsewhere installs nothing and names the command to run', () => {
    for (const survey of [
      { ...debianRoot, isRoot: false },
      { ...debianRoot, isDebian: false },
      { ...debianRoot, hasAptGet: false },
    ]) {
      const plan = planSandboxTools(survey);
      expect(plan).toMatchObject({
        kind: 'missing',
        message: expect.stringContaining('sudo apt-get install -y bubblewrap socat'),
      });
    }
  });
});
