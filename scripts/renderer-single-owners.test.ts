import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/** The renderer's production sources (no tests, fakes or fixtures), each with its text. */
const HERE = join(dirname(fileURLToPath(import.meta.url)), '..', 'src-renderer');
function sources(dir = HERE): Array<{ path: string; text: string }> {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    if (!/\.tsx?$/.test(entry.name) || /\.test\.tsx?$/.test(entry.name)) return [];
    return [{ path: relative(HERE, path).replaceAll('\\', '/'), text: readFileSync(path, 'utf8') }];
  });
}
const wherever = (pattern: RegExp) =>
  sources().flatMap(({ path, text }) => (text.match(pattern) ?? []).map(() => path));

describe('one place in the renderer for each of these', () => {
  it('the preload’s bridge is looked for only in platform/desktop-bridge.ts', () => {
    // A read of `.cairn` off the window (or of a cast of it), not a mention in a comment.
    expect(wherever(/(?:\)|\bwin(?:dow)?)\??\.cairn\b(?!`)/g)).toEqual(['platform/desktop-bridge.ts']);
  });

  it('codex.forceStop is invoked by one store action (the quarantine notice and a failed turn share it)', () => {
    expect(wherever(/invoke\('codex\.forceStop'/g)).toEqual(['state/codex-actions.ts']);
  });
});
