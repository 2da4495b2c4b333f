#!/usr/bin/env node
/**
 * One-off codemod (issue 26): moves the runtime's loose files and its agent backends into folders that
 * read like the architecture, with `git mv`, and rewrites every reference to a moved file:
 * - relative specifiers in code (imports, exports, import(), vi.mock(), new URL(), any './…' or '../…'
 *   string that names a file of the repository), in src-main, src-shared, src-renderer, src-preload, e2e,
 *   bench, scripts and the root's config files;
 * - repository paths in code and Markdown (`src-main/runtime/…`, and `runtime/…` in Markdown).
 * The plan is computed from the files present when it runs, so files added meanwhile move with their folder.
 *
 *   node scripts/relayout.mjs --dry   prints the plan and the references it would rewrite
 *   node scripts/relayout.mjs         applies it (refuses when the runtime root holds a file no rule places)
 *
 * Delete this script once the move has landed.
 */
import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmdirSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, posix, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const RUNTIME = 'src-main/runtime/';
const dry = process.argv.includes('--dry');

/** Loose files of the runtime root, by stem (`run-executor.test.ts` has the stem `run-executor`), and their folder. */
const LOOSE = {
  turns: ['turn-service', 'run-executor', 'run-recorder', 'recovery'],
  sessions: ['session-service', 'session-title'],
  connections: ['connection-service', 'provider-client', 'ai-sdk-provider-client'],
  ports: ['event-bus', 'ports', 'stable-json'],
};
/** The composition root stays where it is. */
const ROOT_STEMS = new Set(['runtime']);
/** Whole folders of the runtime root and where they go. */
const FOLDERS = {
  providers: 'connections/providers',
  codex: 'agent-backends/codex',
  acp: 'agent-backends/acp',
  'native-agent': 'agent-backends/agent-process',
};
/** backends/: the interface beside the backends, the scripted ones together, the rest built in. */
function backendTarget(rest) {
  const stem = rest.split('/')[0].split('.')[0];
  if (!rest.includes('/') && stem === 'agent-backend') return `agent-backends/${rest}`;
  if (stem.startsWith('scripted-')) return `agent-backends/scripted/${rest}`;
  return `agent-backends/builtin/${rest}`;
}

const CODE = /\.(ts|tsx|mts|cts|js|mjs|cjs)$/;
const CODE_DIRS = ['src-main/', 'src-shared/', 'src-renderer/', 'src-preload/', 'e2e/', 'bench/', 'scripts/'];
const RESOLVE_SUFFIXES = ['', '.ts', '.tsx', '.mts', '.js', '.mjs', '/index.ts', '/index.tsx'];

const SELF = 'scripts/relayout.mjs';
const files = execFileSync('git', ['ls-files', '-co', '--exclude-standard', '-z'], { cwd: ROOT, encoding: 'utf8' })
  .split('\0')
  .filter((file) => file !== '' && file !== SELF && existsSync(join(ROOT, file)));
const present = new Set(files);

// 1. The plan: old path → new path, for every file under the runtime root that a rule places.
const looseFolder = new Map(Object.entries(LOOSE).flatMap(([folder, stems]) => stems.map((stem) => [stem, folder])));
const moves = new Map();
const unplaced = [];
for (const file of files) {
  if (!file.startsWith(RUNTIME)) continue;
  const rest = file.slice(RUNTIME.length);
  const slash = rest.indexOf('/');
  if (slash === -1) {
    const stem = rest.split('.')[0];
    if (looseFolder.has(stem)) moves.set(file, `${RUNTIME}${looseFolder.get(stem)}/${rest}`);
    else if (!ROOT_STEMS.has(stem)) unplaced.push(file);
    continue;
  }
  const top = rest.slice(0, slash);
  const inside = rest.slice(slash + 1);
  if (top === 'backends') moves.set(file, `${RUNTIME}${backendTarget(inside)}`);
  else if (top in FOLDERS) moves.set(file, `${RUNTIME}${FOLDERS[top]}/${inside}`);
}
const clashes = [...moves.values()].filter((target) => present.has(target) && !moves.has(target));

// 2. Relative specifiers: resolved against the importer's old place, rewritten for both new places.
function resolveSpecifier(fromFile, specifier) {
  const base = posix.normalize(posix.join(posix.dirname(fromFile), specifier));
  for (const suffix of RESOLVE_SUFFIXES) {
    if (present.has(base + suffix)) return { target: base + suffix, suffix };
  }
  if (specifier.endsWith('.js') && present.has(`${base.slice(0, -3)}.ts`))
    return { target: `${base.slice(0, -3)}.ts`, suffix: '', jsForTs: true };
  return null;
}

const newPathOf = (file) => moves.get(file) ?? file;

function rewriteSpecifier(fromOld, specifier) {
  const found = resolveSpecifier(fromOld, specifier);
  if (found === null) return null;
  const fromNew = newPathOf(fromOld);
  const targetNew = newPathOf(found.target);
  if (fromNew === fromOld && targetNew === found.target) return null;
  let target = targetNew;
  if (found.jsForTs) target = target.replace(/\.ts$/, '.js');
  else if (found.suffix.startsWith('/index')) target = posix.dirname(target);
  else if (found.suffix !== '') target = target.slice(0, -found.suffix.length);
  let relative = posix.relative(posix.dirname(fromNew), target);
  if (relative === '') relative = '.';
  else if (!relative.startsWith('.')) relative = `./${relative}`;
  return relative === specifier ? null : relative;
}

// 3. Repository paths written out (`src-main/runtime/codex/…`, `runtime/run-executor.ts`, `runtime/codex/`).
const folderMoves = new Map();
for (const top of Object.keys(FOLDERS)) {
  const old = `${RUNTIME}${top}/`;
  if (files.some((file) => file.startsWith(old))) folderMoves.set(old, `${RUNTIME}${FOLDERS[top]}/`);
}
const partlyMovedFolders = new Set([`${RUNTIME}backends/`]);

/** The new spelling of a path token relative to src-main/runtime/, or a reason it cannot be told. */
function mapRuntimeToken(rest) {
  const full = RUNTIME + rest;
  if (moves.has(full)) return { to: moves.get(full).slice(RUNTIME.length) };
  for (const ext of ['.ts', '.tsx'])
    if (moves.has(full + ext)) return { to: moves.get(full + ext).slice(RUNTIME.length, -ext.length) };
  const asFolder = full.endsWith('/') ? full : `${full}/`;
  for (const [old, now] of folderMoves) {
    if (asFolder.startsWith(old)) {
      const mapped = now + asFolder.slice(old.length);
      return { to: (full.endsWith('/') ? mapped : mapped.slice(0, -1)).slice(RUNTIME.length) };
    }
  }
  for (const folder of partlyMovedFolders)
    if (asFolder.startsWith(folder))
      return { review: `${folder} is split between agent-backends/builtin, scripted and the interface` };
  return null;
}

const PATH_TOKEN = /(?<![\w./-])((?:src-main\/)?runtime\/)([\w.-]+(?:\/[\w.-]+)*\/?)/g;
const RELATIVE_STRING = /(['"`])(\.\.?(?:\/[^'"`\s$]*)?)\1/g;

const edits = new Map();
const notes = [];
for (const file of files) {
  const isCode = CODE.test(file) && (CODE_DIRS.some((dir) => file.startsWith(dir)) || !file.includes('/'));
  const isMarkdown = file.endsWith('.md');
  if (!isCode && !isMarkdown) continue;
  const text = readFileSync(join(ROOT, file), 'utf8');
  let changed = text;
  const changes = [];
  if (isCode) {
    changed = changed.replace(RELATIVE_STRING, (whole, quote, specifier) => {
      const next = rewriteSpecifier(file, specifier);
      if (next === null) return whole;
      changes.push(`${specifier} → ${next}`);
      return `${quote}${next}${quote}`;
    });
  }
  changed = changed.replace(PATH_TOKEN, (whole, prefix, rest) => {
    if (isCode && prefix !== RUNTIME) return whole;
    const trimmed = rest.replace(/\.+$/, '');
    const mapped = mapRuntimeToken(trimmed);
    if (mapped === null) return whole;
    if ('review' in mapped) {
      notes.push(`${file}: \`${prefix}${trimmed}\` (${mapped.review})`);
      return whole;
    }
    changes.push(`${prefix}${trimmed} → ${prefix}${mapped.to}`);
    return `${prefix}${mapped.to}${rest.slice(trimmed.length)}`;
  });
  if (changed !== text) edits.set(file, { text: changed, changes });
}

// Strings that name a runtime folder piece by piece (path.join('runtime', 'codex')) are only reported.
const pieces = new Set([...Object.keys(FOLDERS), 'backends', ...looseFolder.keys()]);
for (const file of files) {
  if (!CODE.test(file) || !CODE_DIRS.some((dir) => file.startsWith(dir))) continue;
  readFileSync(join(ROOT, file), 'utf8')
    .split('\n')
    .forEach((line, index) => {
      if (!/['"]runtime['"]/.test(line)) return;
      const named = [...line.matchAll(/['"]([\w-]+)['"]/g)]
        .map((match) => match[1])
        .filter((piece) => pieces.has(piece));
      if (named.length > 0)
        notes.push(`${file}:${index + 1}: names runtime pieces as separate strings (${named.join(', ')})`);
    });
}

// The report.
const byFolder = new Map();
for (const [from, to] of moves) {
  const key = `${posix.dirname(from)}/ → ${posix.dirname(to)}/`;
  byFolder.set(key, [...(byFolder.get(key) ?? []), posix.basename(from)]);
}
console.log(`${moves.size} files move:`);
for (const [key, names] of byFolder) console.log(`  ${key}\n      ${names.sort().join(' ')}`);
console.log(
  `\n${edits.size} files have references rewritten (${[...edits.values()].reduce((sum, edit) => sum + edit.changes.length, 0)} references):`,
);
for (const [file, edit] of edits)
  console.log(`  ${file}${dry ? `\n      ${edit.changes.join('\n      ')}` : ` (${edit.changes.length})`}`);
if (notes.length > 0) console.log(`\nTo review by hand (not rewritten):\n  ${notes.join('\n  ')}`);
if (unplaced.length > 0)
  console.log(`\nNo rule places these files of the runtime root; add one to LOOSE:\n  ${unplaced.join('\n  ')}`);
if (clashes.length > 0) console.log(`\nThese targets exist already:\n  ${clashes.join('\n  ')}`);
if (unplaced.length > 0 || clashes.length > 0) process.exit(1);
if (dry) process.exit(0);

// Applying: edits first (at the old paths), then the moves.
for (const [file, edit] of edits) writeFileSync(join(ROOT, file), edit.text);
const tracked = new Set(execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' }).split('\0'));
for (const [from, to] of moves) {
  mkdirSync(dirname(join(ROOT, to)), { recursive: true });
  if (tracked.has(from)) execFileSync('git', ['mv', from, to], { cwd: ROOT });
  else renameSync(join(ROOT, from), join(ROOT, to));
}
function removeEmptyFolders(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) removeEmptyFolders(path);
  }
  if (readdirSync(dir).length === 0) rmdirSync(dir);
}
removeEmptyFolders(join(ROOT, RUNTIME));
const left = readdirSync(join(ROOT, RUNTIME)).filter((name) => !statSync(join(ROOT, RUNTIME, name)).isDirectory());
console.log(`\nDone. Files left in the runtime root: ${left.join(' ')}`);
