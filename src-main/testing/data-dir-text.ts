import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Every byte of every file under `dir`, folders included, as one string: for tests that a secret is nowhere in clear. */
export function dataDirText(dir: string): string {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => readFileSync(join(entry.parentPath, entry.name)).toString('latin1'))
    .join('\n');
}
