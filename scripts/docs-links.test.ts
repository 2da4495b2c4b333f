import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../src-main/storage/migrations';
import { ERROR_CODES } from '../src-shared/errors';
import { operations } from '../src-shared/operations';

/**
 * Keeps the documentation honest: every relative link in README.md, CONTRIBUTING.md and the pages under docs/
 * points at a file a clone has (not a build output, not outside the repository), every `#anchor`
 * names a heading of its page, every repository path they name exists (the rule is at PATH_BASES),
 * every test named as a guard exists by that name, ARCHITECTURE.md's lists of error codes and unused
 * migration numbers and headless-host.md's table of operations match the code, code comments cite
 * only sections and invariants the docs have, and the README stays a front page.
 */
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const README_MAX_LINES = 250;
/** Folders a clone does not have: build outputs and installed packages. */
const NOT_IN_A_CLONE = ['node_modules', 'out', 'dist', 'native', 'test-results', 'app.asar.unpacked'];

/** README.md, CONTRIBUTING.md and every page under docs/ (docs/decisions/ too). */
function docFiles(): string[] {
  const pagesIn = (folder: string): string[] =>
    readdirSync(folder, { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory()
        ? pagesIn(join(folder, entry.name))
        : entry.name.endsWith('.md')
          ? [join(folder, entry.name)]
          : [],
    );
  const docs = join(ROOT, 'docs');
  return [join(ROOT, 'README.md'), join(ROOT, 'CONTRIBUTING.md'), ...(existsSync(docs) ? pagesIn(docs) : [])];
}

/** The Markdown without fenced code blocks, where a `# line` is not a heading. */
function withoutFences(markdown: string): string {
  return markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
}

/** The Markdown without code blocks and inline code, where a `[x](y)` is not a link. */
function proseOf(markdown: string): string {
  return withoutFences(markdown).replace(/`[^`\n]*`/g, '');
}

/** Link targets: inline links and images `[text](target "title")`, and reference definitions `[id]: target`. */
export function linkTargets(markdown: string): string[] {
  const prose = proseOf(markdown);
  const inline = [...prose.matchAll(/!?\[(?:[^\]\\]|\\.)*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map(
    (match) => match[1] ?? '',
  );
  const references = [...prose.matchAll(/^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+"[^"]*")?\s*$/gm)].map(
    (match) => match[1] ?? '',
  );
  return [...inline, ...references].filter((target) => target !== '');
}

/** GitHub's anchor for each heading of a page, with -1, -2 … for repeats. */
export function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const match of withoutFences(markdown).matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const text = (match[1] ?? '').replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1');
    const base = text
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '')
      .replace(/ /g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

/** What is wrong with one link of `file`, or null when it resolves. */
function problemWith(file: string, target: string): string | null {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return null; // https:, mailto: … — not ours to check
  const [pathPart = '', anchor] = target.split('#', 2);
  const path = decodeURI(pathPart);
  const resolved = path === '' ? file : resolve(dirname(file), path);
  const inRepo = relative(ROOT, resolved);
  if (inRepo.startsWith('..') || resolve(ROOT, inRepo) !== resolved) return `${target}: outside the repository`;
  if (NOT_IN_A_CLONE.includes(inRepo.split(sep)[0] ?? ''))
    return `${target}: ${inRepo} is not in a clone (a build output or an installed package)`;
  if (!existsSync(resolved)) return `${target}: ${inRepo} does not exist`;
  if (anchor === undefined || anchor === '') return null;
  if (statSync(resolved).isDirectory() || !resolved.endsWith('.md')) return null;
  return headingAnchors(readFileSync(resolved, 'utf8')).has(decodeURIComponent(anchor))
    ? null
    : `${target}: no heading #${anchor} in ${inRepo}`;
}

/**
 * Repository paths in the docs, and the rule that reads them.
 *
 * Read: every span in backticks outside code blocks, and every word of a ```mermaid diagram. A span is
 * a repository path when it has no whitespace and is not a URL (`https://…`), a home or absolute path
 * (`~/…`, `/proc`), a scoped package (`@openai/codex`) or a placeholder (`<…>`, `NNN`, `*`, `…`, `{a,b}`), and
 * - it has a `/` inside and ends in a known extension or in `/`, or starts with a folder one of
 *   PATH_BASES holds (`src-main/…`, `runtime/…`, `state/…`); so `session/load` (an ACP method),
 *   `codex/home` (in the data directory) and `turn.start` (an operation) are not paths; or
 * - it is one name ending in a source extension (`quit-drain.ts`) or in `/` (`composition/`). A lone
 *   `notes.md` or `secrets.json` names a person's or the data directory's file, so it is not read.
 *
 * Resolved: a path with a `/` inside must exist under one of PATH_BASES, unless it starts with a folder a
 * clone does not have (`out/main/serve.js`). One name must be the name of a file or folder somewhere in
 * the repository (the text around it says which folder), unless NOT_REPOSITORY_NAMES lists it.
 */
const PATH_BASES = ['.', 'src-main', 'src-main/runtime', 'src-renderer', 'src-shared'];
const KNOWN_EXTENSION = /\.(?:ts|tsx|mts|cts|mjs|cjs|js|json|md|css|html|svg|png|yml|yaml|sh)$/;
const SOURCE_EXTENSION = /\.(?:ts|tsx|mts|cts|mjs|cjs|js)$/;
/** Not a path of this repository: a placeholder, a home or absolute path, a package, a variable, a URL, or a workspace's own `.git/…`. */
const PLACEHOLDER = /[<>*{}…|]|NNN|^[~/@$]|:\/\/|^\.git\//;
/** Names the docs give to things outside the repository: a folder of the data directory, a git branch prefix, a workspace's own Cairn folder, a naming pattern. */
const NOT_REPOSITORY_NAMES = ['context-offload/', 'agents/', 'cairn/', '.cairn/', 'PascalCase.tsx'];

export interface NamedPath {
  readonly line: number;
  readonly path: string;
}

function startsWithBaseFolder(path: string, root: string): boolean {
  const first = path.split('/')[0] ?? '';
  return (
    first !== '' &&
    PATH_BASES.some((base) => existsSync(join(root, base, first)) && statSync(join(root, base, first)).isDirectory())
  );
}

/** Whether a span in backticks (or a word of a diagram) is a repository path, by the rule above. */
export function isRepositoryPath(span: string, root: string = ROOT): boolean {
  if (/\s/.test(span) || PLACEHOLDER.test(span)) return false;
  if (/^[^/]+\/?$/.test(span)) return SOURCE_EXTENSION.test(span) || span.endsWith('/');
  return KNOWN_EXTENSION.test(span) || span.endsWith('/') || startsWithBaseFolder(span, root);
}

/** The repository paths a Markdown page names, with their line numbers (1-based). */
export function namedPaths(markdown: string, root: string = ROOT): NamedPath[] {
  const found: NamedPath[] = [];
  let fence: { marker: string; mermaid: boolean } | null = null;
  markdown.split('\n').forEach((text, index) => {
    const opening = /^(```|~~~)\s*(\S*)/.exec(text);
    if (fence === null && opening !== null) {
      fence = { marker: opening[1] ?? '```', mermaid: opening[2] === 'mermaid' };
      return;
    }
    if (fence !== null && text.startsWith(fence.marker)) {
      fence = null;
      return;
    }
    const spans =
      fence === null
        ? [...text.matchAll(/`([^`]+)`/g)].map((match) => match[1] ?? '')
        : fence.mermaid
          ? [...text.replace(/<\/?(?:br|b|i|em|strong|small|sub|sup)\s*\/?>/gi, ' ').matchAll(/[\w.\-/…<>*{}]+/g)].map(
              (match) => match[0].replace(/[.,:]+$/, ''),
            )
          : [];
    for (const path of spans) if (isRepositoryPath(path, root)) found.push({ line: index + 1, path });
  });
  return found;
}

/** Every file and folder name in the repository (not in build outputs or installed packages). */
function namesInRepository(root: string): Set<string> {
  const names = new Set<string>();
  const walk = (folder: string): void => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      if (
        entry.name === '.git' ||
        entry.name === 'node_modules' ||
        (folder === root && NOT_IN_A_CLONE.includes(entry.name))
      )
        continue;
      names.add(entry.isDirectory() ? `${entry.name}/` : entry.name);
      if (entry.isDirectory()) walk(join(folder, entry.name));
    }
  };
  walk(root);
  return names;
}

/** The paths of a page that do not exist where the rule above looks, as `line: path`. */
export function missingPaths(
  markdown: string,
  root: string = ROOT,
  names: Set<string> = namesInRepository(root),
): string[] {
  return namedPaths(markdown, root)
    .filter(({ path }) => {
      if (PATH_BASES.some((base) => existsSync(join(root, base, path)))) return false;
      const inner = path.replace(/\/$/, '');
      if (NOT_IN_A_CLONE.includes(inner.split('/')[0] ?? '')) return false;
      return inner.includes('/') || !(names.has(path) || names.has(`${path}/`) || NOT_REPOSITORY_NAMES.includes(path));
    })
    .map(({ line, path }) => `${line}: ${path}`);
}

/** Every named path of the docs that exists nowhere it could be meant, as `file:line: path`. */
function missingSources(): string[] {
  const names = namesInRepository(ROOT);
  return docFiles()
    .filter((file) => existsSync(file))
    .flatMap((file) =>
      missingPaths(readFileSync(file, 'utf8'), ROOT, names).map((problem) => `${relative(ROOT, file)}:${problem}`),
    );
}

export interface NamedTest {
  readonly line: number;
  readonly file: string;
  readonly name: string;
}

/** Tests named as `file.test.ts` › *describe › test name* (several: `; *another*`), as the invariants name their guards. */
export function namedTests(markdown: string): NamedTest[] {
  return markdown
    .split('\n')
    .flatMap((text, index) =>
      [...text.matchAll(/`([^`\s]+\.(?:test|spec)\.tsx?)`([^`]*)/g)].flatMap(([, file = '', after = '']) =>
        /^\s*(?:\([^)]*\)\s*)?›/.test(after)
          ? [...after.matchAll(/\*([^*]+)\*/g)].map(([, name = '']) => ({ line: index + 1, file, name }))
          : [],
      ),
    );
}

/** The named tests whose file has no such test: each part of `describe › test` must be in the file. */
export function missingTests(markdown: string, root: string = ROOT): string[] {
  return namedTests(markdown).flatMap(({ line, file, name }) => {
    const base = PATH_BASES.find((folder) => existsSync(join(root, folder, file)));
    if (base === undefined) return []; // a file that does not exist is reported with the paths
    const code = readFileSync(join(root, base, file), 'utf8');
    return name.split(' › ').every((part) => code.includes(part)) ? [] : [`${line}: ${file} › ${name}`];
  });
}

/** The operations a Markdown table lists in its second column: `session.create\|list` is session.create and session.list. */
export function listedOperations(markdown: string): string[] {
  return markdown
    .split('\n')
    .filter((line) => line.startsWith('| '))
    .flatMap((line) => [...(line.split(/(?<!\\)\|/)[2] ?? '').matchAll(/`([^`]+)`/g)])
    .flatMap(([, span = '']) => {
      const [first = '', ...others] = span.split('\\|');
      const domain = first.slice(0, first.lastIndexOf('.') + 1);
      return [first, ...others.map((verb) => domain + verb)];
    });
}

/** Folders whose code may cite the docs in comments (`ARCHITECTURE.md §4, invariant 8`). */
const CODE_FOLDERS = ['src-main', 'src-renderer', 'src-shared', 'src-preload', 'scripts', 'e2e', 'bench'];

function codeFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : codeFiles(path);
    return SOURCE_EXTENSION.test(entry.name) ? [path] : [];
  });
}

/** What a piece of code cites that the docs do not have: a `<page>.md §N` whose page or section is missing, an invariant past the list. */
export function wrongCitations(code: string, pages: ReadonlyMap<string, string>): string[] {
  const wrong: string[] = [];
  for (const match of code.matchAll(/([\w-]+\.md) ?§ ?(\d+)(?:,? invariants? (\d+))?/g)) {
    const [citation, page = '', section = '', invariant] = match;
    const markdown = pages.get(page);
    if (markdown === undefined) wrong.push(`${citation}: no ${page} in the repository`);
    else if (!new RegExp(`^#{1,6} ${section}\\. `, 'm').test(markdown))
      wrong.push(`${citation}: ${page} has no section ${section}`);
    else if (invariant !== undefined && !new RegExp(`^${invariant}\\. \\*\\*`, 'm').test(markdown))
      wrong.push(`${citation}: ${page} has no invariant ${invariant}`);
  }
  return wrong;
}

function brokenLinks(): string[] {
  return docFiles()
    .filter((file) => existsSync(file))
    .flatMap((file) =>
      linkTargets(readFileSync(file, 'utf8')).flatMap((target) => {
        const problem = problemWith(file, target);
        return problem === null ? [] : [`${relative(ROOT, file)}: ${problem}`];
      }),
    );
}

describe('the documentation', () => {
  it('has a README, a CONTRIBUTING guide and an architecture document', () => {
    for (const name of ['README.md', 'CONTRIBUTING.md', 'docs/ARCHITECTURE.md'])
      expect(existsSync(join(ROOT, name)), name).toBe(true);
  });

  it('keeps no folder of scratch notes: what is worth keeping is in docs/ (reasons in docs/decisions/)', () => {
    expect(existsSync(join(ROOT, 'notes'))).toBe(false);
  });

  it('links only to files a clone has, and to headings that exist', () => {
    const checked = docFiles()
      .filter((file) => existsSync(file))
      .flatMap((file) => linkTargets(readFileSync(file, 'utf8')));
    expect(checked.length).toBeGreaterThan(20);
    expect(brokenLinks()).toEqual([]);
  });

  it('names only repository paths that exist (re-point the paths when files move)', () => {
    const named = docFiles()
      .filter((file) => existsSync(file))
      .flatMap((file) => namedPaths(readFileSync(file, 'utf8')));
    expect(named.length).toBeGreaterThan(300);
    expect(missingSources()).toEqual([]);
  });

  it('names as guards of the invariants only tests that exist, by their names', () => {
    const architecture = readFileSync(join(ROOT, 'docs', 'ARCHITECTURE.md'), 'utf8');
    expect(namedTests(architecture).length).toBeGreaterThan(25);
    const missing = docFiles()
      .filter((file) => existsSync(file))
      .flatMap((file) =>
        missingTests(readFileSync(file, 'utf8')).map((problem) => `${relative(ROOT, file)}:${problem}`),
      );
    expect(missing).toEqual([]);
  });

  it('lists in headless-host.md every operation of the table, and only those', () => {
    const listed = listedOperations(readFileSync(join(ROOT, 'docs', 'headless-host.md'), 'utf8'));
    expect([...listed].sort()).toEqual(Object.keys(operations).sort());
  });

  it('is cited by code comments only where a page, its section and its invariant exist', () => {
    const pages = new Map(
      docFiles().map((file) => [basename(file), existsSync(file) ? readFileSync(file, 'utf8') : '']),
    );
    const self = fileURLToPath(import.meta.url); // its examples of wrong citations are meant
    const wrong = CODE_FOLDERS.flatMap((folder) => codeFiles(join(ROOT, folder)))
      .filter((file) => file !== self)
      .flatMap((file) =>
        wrongCitations(readFileSync(file, 'utf8'), pages).map((problem) => `${relative(ROOT, file)}: ${problem}`),
      );
    expect(wrong).toEqual([]);
  });

  it('lists in ARCHITECTURE.md every error code, and every migration number left unused', () => {
    const architecture = readFileSync(join(ROOT, 'docs', 'ARCHITECTURE.md'), 'utf8').replace(/\s+/g, ' ');
    const codes = /The codes: ([^.]*)\./.exec(architecture)?.[1] ?? '';
    expect([...codes.matchAll(/`([a-z_]+)`/g)].map((match) => match[1])).toEqual([...ERROR_CODES]);
    const versions = new Set(MIGRATIONS.map((migration) => migration.version));
    const unused = Array.from({ length: Math.max(...versions) }, (_, index) => index + 1).filter(
      (version) => !versions.has(version),
    );
    const written = /Numbers may have gaps \(([^)]*) are unused\)/.exec(architecture)?.[1] ?? '';
    expect([...written.matchAll(/\d+/g)].map((match) => Number(match[0]))).toEqual(unused);
  });

  it(`keeps the README a front page: at most ${README_MAX_LINES} lines`, () => {
    const lines = readFileSync(join(ROOT, 'README.md'), 'utf8').split('\n').length;
    expect(lines).toBeLessThanOrEqual(README_MAX_LINES);
  });
});

describe('the link reader', () => {
  it('finds inline links, images and references, but not links inside code', () => {
    const markdown = [
      'See [the guide](docs/a.md#part) and ![shot](docs/images/x.png "Title").',
      '[ref]: ./b.md',
      'Not `[code](c.md)`.',
      '```',
      '[fenced](d.md)',
      '```',
    ].join('\n');
    expect(linkTargets(markdown)).toEqual(['docs/a.md#part', 'docs/images/x.png', './b.md']);
  });

  it('reads repository paths in backticks and diagrams, not placeholders, URLs, packages, commands, methods or operations', () => {
    const markdown = [
      'Read `src-main/host/dispatcher.ts`, `runtime/turns/` and `quit-drain.ts`; not `storage/<group>-store.ts`, `NNN-name.ts`,',
      '`fs/*`, `cairn/…`, `npm test`, `https://x.org/a.md`, `@openai/codex`, `session/load`, `turn.start`, `~/.cairn`, `/proc`, `notes.md`.',
      '```mermaid',
      '  A["ACP<br/>agent-backends/acp/acp-backend.ts"] --> B["src-main/electron/, secrets.json"]',
      '```',
      '```sh',
      'node scripts/some-script.mjs',
      '```',
    ].join('\n');
    expect(namedPaths(markdown)).toEqual([
      { line: 1, path: 'src-main/host/dispatcher.ts' },
      { line: 1, path: 'runtime/turns/' },
      { line: 1, path: 'quit-drain.ts' },
      { line: 4, path: 'agent-backends/acp/acp-backend.ts' },
      { line: 4, path: 'src-main/electron/' },
    ]);
  });

  it('reports a path that exists under none of the bases, and a name no file or folder has', () => {
    const markdown = [
      '`src-main/host/dispatcher.ts` `host/dispatcher.ts` `turns/run-executor.ts` `state/store.ts` `operations/index.ts`',
      '`composition/` `run-recorder.ts` `out/main/serve.js`',
      '`src-main/runtime/no-such-service.ts` `turns/no-such-file.ts`',
      '`no-such-module.ts` `no-such-folder/`',
    ].join('\n');
    expect(missingPaths(markdown)).toEqual([
      '3: src-main/runtime/no-such-service.ts',
      '3: turns/no-such-file.ts',
      '4: no-such-module.ts',
      '4: no-such-folder/',
    ]);
  });

  it('finds tests named in the docs that their file does not have', () => {
    const markdown = [
      '- `scripts/docs-links.test.ts` › *the link reader › makes GitHub’s anchors, repeats numbered*',
      '- `scripts/docs-links.test.ts` (all of it) › *the link reader › finds inline links*; *the link reader › finds ' +
        'what is not there*',
      '- `src-main/no-such.test.ts` › *anything*; see `scripts/docs-links.test.ts` for more',
    ].join('\n');
    expect(namedTests(markdown).map(({ line, name }) => `${line}: ${name}`)).toEqual([
      '1: the link reader › makes GitHub’s anchors, repeats numbered',
      '2: the link reader › finds inline links',
      '2: the link reader › finds ' + 'what is not there',
      '3: anything',
    ]);
    expect(missingTests(markdown)).toEqual([
      '2: scripts/docs-links.test.ts › the link reader › finds ' + 'what is not there',
    ]);
  });

  it('reads the operations of a table row, verbs after the first sharing its domain', () => {
    const markdown = [
      '| Domain | Operations |',
      '| --- | --- |',
      '| MCP (`mcp-operations.ts`) | `mcp.server.list\\|test`, `mcp.prompt.get` |',
    ].join('\n');
    expect(listedOperations(markdown)).toEqual(['mcp.server.list', 'mcp.server.test', 'mcp.prompt.get']);
  });

  it('finds citations of a page that is not in the repository, a section or an invariant it lacks', () => {
    const pages = new Map([['ARCHITECTURE.md', '## 4. The record\n1. **One**\n2. **Two**\n']]);
    const code = '// ARCHITECTURE.md §4, invariant 2; ARCHITECTURE.md §4, invariant 3; ARCHITECTURE.md §9; STYLE.md §7';
    expect(wrongCitations(code, pages)).toEqual([
      'ARCHITECTURE.md §4, invariant 3: ARCHITECTURE.md has no invariant 3',
      'ARCHITECTURE.md §9: ARCHITECTURE.md has no section 9',
      'STYLE.md §7: no STYLE.md in the repository',
    ]);
  });

  it('makes GitHub’s anchors, repeats numbered', () => {
    const anchors = headingAnchors('# 3. The contract (src-shared)\n## `npm start`\n## Notes\n## Notes\n');
    expect([...anchors]).toEqual(['3-the-contract-src-shared', 'npm-start', 'notes', 'notes-1']);
  });
});
