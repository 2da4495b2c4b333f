import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import type { SkillSource } from '../../../src-shared/skill-model';
import { readFrontMatter } from './front-matter';

/** Where skills are looked for: the session's workspace (may be none) and the person's own folder. */
export interface SkillFolders {
  readonly workspacePath: string | null;
  readonly personalDir: string;
}

/** A skill whose SKILL.md was read and understood; `instructions` is the Markdown after the front matter. */
export interface CatalogSkill {
  readonly kind: 'skill';
  readonly id: string;
  readonly source: SkillSource;
  readonly file: string;
  readonly name: string;
  readonly description: string;
  readonly requiredTools: readonly string[];
  readonly instructions: string;
}

/** A skill folder whose SKILL.md could not be used, and why (never a crash). */
export interface BrokenSkill {
  readonly kind: 'broken';
  readonly id: string;
  readonly source: SkillSource;
  readonly file: string;
  readonly reason: string;
}

export type CatalogEntry = CatalogSkill | BrokenSkill;

/** The largest SKILL.md read (a skill is instructions for a model, not a data file). */
export const MAX_SKILL_FILE_BYTES = 256 * 1024;
const SKILL_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

/** The front matter keys a skill uses; others (license, metadata, …) are allowed and ignored. */
const skillFrontMatter = z.object({
  name: z.string({ error: 'needs a "name" (text)' }).trim().min(1, 'needs a "name" (text)').max(200),
  description: z
    .string({ error: 'needs a "description" (text)' })
    .trim()
    .min(1, 'needs a "description" (text)')
    .max(2000),
  'required-tools': z
    .array(z.string().trim().min(1).max(200), { error: '"required-tools" must be a list of tool names' })
    .max(100)
    .optional(),
});

/** The workspace's and the person's skill folders. */
export function skillRoots(folders: SkillFolders): Array<{ source: SkillSource; dir: string }> {
  return [
    ...(folders.workspacePath === null
      ? []
      : [{ source: 'workspace' as const, dir: path.join(folders.workspacePath, '.agents', 'skills') }]),
    { source: 'personal' as const, dir: path.join(folders.personalDir) },
  ];
}

/**
 * Every skill in the folders, read afresh, sorted by id. A workspace skill hides a personal one with
 * the same id. A folder without SKILL.md is not a skill and is left out.
 */
export async function readSkillCatalog(folders: SkillFolders): Promise<CatalogEntry[]> {
  const byId = new Map<string, CatalogEntry>();
  for (const root of skillRoots(folders)) {
    for (const id of await subfolders(root.dir)) {
      if (byId.has(id)) continue;
      const entry = await readSkillFolder(root.source, root.dir, id);
      if (entry !== null) byId.set(id, entry);
    }
  }
  return [...byId.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** One skill by id, read afresh now (the workspace's first); null when no folder of that id has a SKILL.md. */
export async function readSkill(folders: SkillFolders, id: string): Promise<CatalogEntry | null> {
  if (!SKILL_ID.test(id)) return null;
  for (const root of skillRoots(folders)) {
    const entry = await readSkillFolder(root.source, root.dir, id);
    if (entry !== null) return entry;
  }
  return null;
}

async function subfolders(dir: string): Promise<string[]> {
  try {
    const entries = await readdir(dir, { withFileTypes: true });
    return entries.filter((entry) => entry.isDirectory() || entry.isSymbolicLink()).map((entry) => entry.name);
  } catch {
    return [];
  }
}

async function readSkillFolder(source: SkillSource, dir: string, id: string): Promise<CatalogEntry | null> {
  const file = path.join(dir, id, 'SKILL.md');
  const broken = (reason: string): BrokenSkill => ({ kind: 'broken', id, source, file, reason });
  let size: number;
  try {
    const info = await stat(file);
    if (!info.isFile()) return broken('SKILL.md is not a file.');
    size = info.size;
  } catch (error) {
    if (isMissing(error)) return null;
    return broken(`SKILL.md cannot be read: ${describeFsError(error)}`);
  }
  if (!SKILL_ID.test(id))
    return broken(
      'The folder name is not a usable skill id (letters, digits, ".", "_" and "-", starting with a letter or digit).',
    );
  if (size > MAX_SKILL_FILE_BYTES)
    return broken(
      `SKILL.md is ${Math.ceil(size / 1024)} KB; a skill may be at most ${MAX_SKILL_FILE_BYTES / 1024} KB.`,
    );
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if (isMissing(error)) return null;
    return broken(`SKILL.md cannot be read: ${describeFsError(error)}`);
  }
  const front = readFrontMatter(text);
  if (front.kind === 'none')
    return broken('SKILL.md has no front matter: start it with a block between --- lines giving name and description.');
  if (front.kind === 'invalid') return broken(front.reason);
  const fields = skillFrontMatter.safeParse(front.data);
  if (!fields.success) {
    const problems = fields.error.issues.map((issue) =>
      issue.path.length <= 1 ? issue.message : `"${issue.path.join('.')}": ${issue.message}`,
    );
    return broken(`The front matter ${problems.join('; ')}.`);
  }
  return {
    kind: 'skill',
    id,
    source,
    file,
    name: fields.data.name,
    description: fields.data.description,
    requiredTools: [...new Set(fields.data['required-tools'] ?? [])],
    instructions: front.body,
  };
}

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

function describeFsError(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied.';
  return error instanceof Error ? error.message : String(error);
}
