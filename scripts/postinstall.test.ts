import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ELECTRON_MISSING_NOTE, postinstallNote } from './postinstall.mjs';

let project: string;
beforeEach(() => {
  project = mkdtempSync(join(tmpdir(), 'cairn-postinstall-'));
});
afterEach(() => rmSync(project, { recursive: true, force: true }));

describe('postinstallNote', () => {
  it('says in one line that npm start will run the headless host when npm left Electron out', () => {
    expect(postinstallNote(project)).toBe(ELECTRON_MISSING_NOTE);
    expect(ELECTRON_MISSING_NOTE).not.toContain('\n');
    expect(ELECTRON_MISSING_NOTE).toContain('`npm start` will run the headless host');
  });

  it('says nothing when the electron package is installed', () => {
    mkdirSync(join(project, 'node_modules', 'electron'), { recursive: true });
    writeFileSync(join(project, 'node_modules', 'electron', 'package.json'), '{"name":"electron","version":"40.10.2"}');
    expect(postinstallNote(project)).toBeNull();
  });
});
