import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../storage/database';
import { MIGRATIONS } from '../../storage/migrations';
import { createSettingsStore } from '../../storage/settings-store';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { checkSandboxSettings, SandboxSettingsService } from './sandbox-settings';

const where = { home: '/home/ada', dataDir: '/home/ada/.local/share/cairn' };
const settings = (extra: Partial<{ allowedHosts: string[]; writableFolders: string[]; deniedPaths: string[] }>) => ({
  allowedHosts: [],
  writableFolders: [],
  deniedPaths: [],
  ...extra,
});

describe('sandbox settings', () => {
  it('accepts valid settings, normalised', () => {
    expect(
      checkSandboxSettings(
        settings({
          allowedHosts: ['Registry.npmjs.org', ' '],
          writableFolders: ['/srv/build/'],
          deniedPaths: ['/srv/secrets'],
        }),
        where,
      ),
    ).toEqual({
      ok: true,
      value: { allowedHosts: ['registry.npmjs.org'], writableFolders: ['/srv/build'], deniedPaths: ['/srv/secrets'] },
    });
  });

  it.each([
    [settings({ allowedHosts: ['ok.example.com', 'https://x.org'] }), '"https://x.org"'],
    [settings({ writableFolders: ['relative/dir'] }), '"relative/dir" is not an absolute path'],
    [settings({ writableFolders: ['/'] }), '"/" cannot be a writable folder'],
    [settings({ writableFolders: ['/home/ada'] }), '"/home/ada" cannot be a writable folder: it would open ~/.ssh'],
    [settings({ writableFolders: ['/home/ada/.ssh/keys'] }), 'it would open ~/.ssh'],
    [settings({ writableFolders: ['/home/ada/.local/share'] }), "it would open Cairn's data directory"],
    [settings({ writableFolders: ['/srv'], deniedPaths: ['/srv/secrets'] }), 'it would open /srv/secrets'],
  ])('refuses bad input, naming it (%#)', (typed, message) => {
    const checked = checkSandboxSettings(typed, where);
    expect(checked.ok).toBe(false);
    if (!checked.ok) expect(checked.message).toContain(message);
  });

  it('saves nothing when anything is wrong; keeps session hosts per session', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'cairn-sandbox-settings-'));
    const db = openDatabase(dir, { migrations: MIGRATIONS });
    try {
      const service = new SandboxSettingsService({ settings: createSettingsStore(db), ...where });
      expect(service.set(settings({ allowedHosts: ['a.example.com'] })).ok).toBe(true);
      expect(service.set(settings({ allowedHosts: ['b.example.com'], writableFolders: ['/home/ada'] })).ok).toBe(false);
      expect(service.get().allowedHosts).toEqual(['a.example.com']);
      service.allowHost('s1', 'registry.npmjs.org', 'session');
      expect(service.allows('s1', 'registry.npmjs.org', 443)).toBe(true);
      expect(service.allows('s2', 'registry.npmjs.org', 443)).toBe(false);
      expect(service.allows('s2', 'a.example.com', 443)).toBe(true);
      expect(service.removeSessionHost('s1', 'registry.npmjs.org')).toEqual([]);
      expect(service.allows('s1', 'registry.npmjs.org', 443)).toBe(false);
      service.allowOnce('s1', 'once.example.com');
      expect(service.takeOnce('s2')).toEqual([]);
      expect(service.takeOnce('s1')).toEqual(['once.example.com']);
      expect(service.takeOnce('s1')).toEqual([]);
      // A walled agent takes one "Allow once" per host and port, leaving the others.
      service.allowOnce('s1', 'a.example.com');
      service.allowOnce('s1', 'b.example.com:8080');
      expect(service.takeOnceFor('s1', 'b.example.com', 443)).toBe(false);
      expect(service.takeOnceFor('s1', 'b.example.com', 8080)).toBe(true);
      expect(service.takeOnceFor('s1', 'b.example.com', 8080)).toBe(false);
      expect(service.takeOnce('s1')).toEqual(['a.example.com']);
      service.allowHost('s1', 'pypi.org', 'always');
      expect(service.allows('s2', 'pypi.org', 443)).toBe(true);
    } finally {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
