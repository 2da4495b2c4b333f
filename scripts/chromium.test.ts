import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  APT_COMMANDS,
  carryOut,
  INSTALL_NOTE,
  MISSING_MESSAGE,
  planChromium,
  surveyChromium,
  type ChromiumSurvey,
} from './chromium.mjs';

const nothing: ChromiumSurvey = {
  override: null,
  existing: [],
  bundled: null,
  isRoot: false,
  isDebian: false,
  hasAptGet: false,
};
const debianRoot: ChromiumSurvey = { ...nothing, isRoot: true, isDebian: true, hasAptGet: true };

describe('planChromium', () => {
  it('uses CAIRN_CHROMIUM first, then Debian’s /usr/bin/chromium, then chromium-browser, then Playwright’s own', () => {
    const all = {
      ...debianRoot,
      override: '/opt/chrome',
      existing: ['/opt/chrome', '/usr/bin/chromium', '/usr/bin/chromium-browser'],
      bundled: '/pw/chrome',
    };
    expect(planChromium(all)).toEqual({ kind: 'use', path: '/opt/chrome' });
    expect(planChromium({ ...all, override: null, existing: all.existing.slice(1) })).toEqual({
      kind: 'use',
      path: '/usr/bin/chromium',
    });
    expect(planChromium({ ...all, override: null, existing: ['/usr/bin/chromium-browser'] })).toEqual({
      kind: 'use',
      path: '/usr/bin/chromium-browser',
    });
    expect(planChromium({ ...all, override: null, existing: [] })).toEqual({ kind: 'use', path: '/pw/chrome' });
  });

  it('with none present, as root on Debian with apt-get: installs Debian’s chromium package, saying so', () => {
    const plan = planChromium(debianRoot);
    expect(plan).toEqual({
      kind: 'apt-install',
      note: INSTALL_NOTE,
      commands: APT_COMMANDS,
      then: '/usr/bin/chromium',
    });
    expect(INSTALL_NOTE).toContain("Installing Debian's `chromium` package");
    expect(APT_COMMANDS.at(-1)).toEqual(['apt-get', 'install', '-y', '-qq', '--no-install-recommends', 'chromium']);
  });

  it('installs nothing when not root, not Debian, or without apt-get: it says what to install instead', () => {
    for (const survey of [
      { ...debianRoot, isRoot: false },
      { ...debianRoot, isDebian: false },
      { ...debianRoot, hasAptGet: false },
    ]) {
      expect(planChromium(survey)).toEqual({ kind: 'missing', message: MISSING_MESSAGE });
    }
    expect(MISSING_MESSAGE).toContain('sudo apt-get install -y chromium');
    expect(MISSING_MESSAGE).toContain('npx playwright install chromium');
  });

  it('names a CAIRN_CHROMIUM that does not exist, and does not fall back silently to installing', () => {
    const plan = planChromium({ ...nothing, override: '/nowhere/chrome' });
    expect(plan.kind).toBe('missing');
    expect(plan.kind === 'missing' && plan.message).toMatch(/^CAIRN_CHROMIUM \(\/nowhere\/chrome\) does not exist\./);
  });
});

describe('carryOut', () => {
  it('runs apt-get update then install non-interactively, and returns /usr/bin/chromium once it is there', () => {
    const ran: { command: string; args: string[]; frontend: string | undefined }[] = [];
    const logged: string[] = [];
    const path = carryOut(planChromium(debianRoot), {
      run: (command, args, env) => {
        ran.push({ command, args, frontend: env.DEBIAN_FRONTEND });
        return 0;
      },
      exists: (candidate) => candidate === '/usr/bin/chromium',
      log: (line) => logged.push(line),
    });
    expect(path).toBe('/usr/bin/chromium');
    expect(logged).toEqual([INSTALL_NOTE]);
    expect(ran.map((entry) => [entry.command, ...entry.args])).toEqual(APT_COMMANDS);
    expect(ran.every((entry) => entry.frontend === 'noninteractive')).toBe(true);
  });

  it('stops at a failed apt-get with the command and what to do', () => {
    const errors: string[] = [];
    const ran: string[][] = [];
    const path = carryOut(planChromium(debianRoot), {
      run: (command, args) => {
        ran.push([command, ...args]);
        return 100;
      },
      log: () => {},
      error: (line) => errors.push(line),
    });
    expect(path).toBeNull();
    expect(ran).toHaveLength(1);
    expect(errors[0]).toMatch(/^`apt-get update -qq` failed \(exit 100\)\.\nThe end-to-end tests need Chromium/);
  });

  it('prints the message and returns null when nothing can be done', () => {
    const errors: string[] = [];
    expect(carryOut(planChromium(nothing), { run: () => 0, error: (line) => errors.push(line) })).toBeNull();
    expect(errors).toEqual([MISSING_MESSAGE]);
  });
});

describe('surveyChromium', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'cairn-chromium-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('reads CAIRN_CHROMIUM and looks for apt-get on PATH', async () => {
    const chrome = join(dir, 'chrome');
    writeFileSync(chrome, '');
    const aptGet = join(dir, 'apt-get');
    writeFileSync(aptGet, '#!/bin/sh\n');
    chmodSync(aptGet, 0o755);
    const survey = await surveyChromium({ CAIRN_CHROMIUM: chrome, PATH: dir });
    expect(survey.override).toBe(chrome);
    expect(survey.existing[0]).toBe(chrome);
    expect(survey.hasAptGet).toBe(true);
    expect((await surveyChromium({ PATH: join(dir, 'empty') })).hasAptGet).toBe(false);
  });
});
