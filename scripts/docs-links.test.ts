import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Keeps the documentation honest: every relative link in README.md, CONTRIBUTING.md and docs/*.md
 * points at a file a clone has (not a build output, not outside the repository), every `#anchor`
 * names a heading of its page, and the README stays a front page.
 */
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const README_MAX_LINES = 250;
/** Folders a clone does not have: build outputs and installed packages. */
const NOT_IN_A_CLONE = ['node_modules', 'out', 'dist', 'native', 'test-results'];

function docFiles(): string[] {
  const docs = join(ROOT, 'docs');
  const pages = existsSync(docs)
    ? readdirSync(docs)
        .filter((name) => name.endsWith('.md'))
        .map((name) => join(docs, name))
    : [];
  return [join(ROOT, 'README.md'), join(ROOT, 'CONTRIBUTING.md'), ...pages];
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
  const inline = [...prose.matchAll(/!?\[(?:[^\]\\]|\\.)*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((match) => match[1] ?? '');
  const references = [...prose.matchAll(/^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+"[^"]*")?\s*$/gm)].map((match) => match[1] ?? '');
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
  if (NOT_IN_A_CLONE.includes(inRepo.split(sep)[0] ?? '')) return `${target}: ${inRepo} is not in a clone (a build output or an installed package)`;
  if (!existsSync(resolved)) return `${target}: ${inRepo} does not exist`;
  if (anchor === undefined || anchor === '') return null;
  if (statSync(resolved).isDirectory() || !resolved.endsWith('.md')) return null;
  return headingAnchors(readFileSync(resolved, 'utf8')).has(decodeURIComponent(anchor)) ? null : `${target}: no heading #${anchor} in ${inRepo}`;
}

/** Where a source path written in backticks may be relative to: the root, or a folder the text is about. */
const SOURCE_BASES = ['.', 'src-main', 'src-main/runtime', 'src-renderer', 'e2e'];

/** Source files named in backticks (`src-main/host/dispatcher.ts`, `codex/json-rpc-client.ts`), not placeholders. */
export function sourcePaths(markdown: string): string[] {
  return [...withoutFences(markdown).matchAll(/`([^`\s]+\/[^`\s]+\.(?:ts|tsx|mjs|cjs|js|json|md))`/g)]
    .map((match) => match[1] ?? '')
    .filter((path) => !/[<>*{}…]|NNN/.test(path) && !path.includes('://'));
}

/** Named source files that exist nowhere they could be meant (a clone has no build output to look in). */
function missingSources(): string[] {
  return docFiles()
    .filter((file) => existsSync(file))
    .flatMap((file) =>
      sourcePaths(readFileSync(file, 'utf8'))
        .filter((path) => !NOT_IN_A_CLONE.includes(path.split('/')[0] ?? ''))
        .filter((path) => !SOURCE_BASES.some((base) => existsSync(join(ROOT, base, path))))
        .map((path) => `${relative(ROOT, file)}: ${path}`),
    );
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
    for (const name of ['README.md', 'CONTRIBUTING.md', 'docs/ARCHITECTURE.md']) expect(existsSync(join(ROOT, name)), name).toBe(true);
  });

  it('links only to files a clone has, and to headings that exist', () => {
    const checked = docFiles()
      .filter((file) => existsSync(file))
      .flatMap((file) => linkTargets(readFileSync(file, 'utf8')));
    expect(checked.length).toBeGreaterThan(20);
    expect(brokenLinks()).toEqual([]);
  });

  it('names only source files that exist (re-point the paths when files move)', () => {
    expect(missingSources()).toEqual([]);
  });

  it(`keeps the README a front page: at most ${README_MAX_LINES} lines`, () => {
    const lines = readFileSync(join(ROOT, 'README.md'), 'utf8').split('\n').length;
    expect(lines).toBeLessThanOrEqual(README_MAX_LINES);
  });
});

describe('the link reader', () => {
  it('finds inline links, images and references, but not links inside code', () => {
    const markdown = ['See [the guide](docs/a.md#part) and ![shot](docs/images/x.png "Title").', '[ref]: ./b.md', 'Not `[code](c.md)`.', '```', '[fenced](d.md)', '```'].join('\n');
    expect(linkTargets(markdown)).toEqual(['docs/a.md#part', 'docs/images/x.png', './b.md']);
  });

  it('finds source paths in backticks, but not placeholders or URLs', () => {
    const markdown = 'Read `src-main/host/dispatcher.ts`, `codex/json-rpc-client.ts` and `storage/<group>-store.ts`; run `npm test`; see `https://x.org/a.md`.';
    expect(sourcePaths(markdown)).toEqual(['src-main/host/dispatcher.ts', 'codex/json-rpc-client.ts']);
  });

  it('makes GitHub’s anchors, repeats numbered', () => {
    const anchors = headingAnchors('# 3. The contract (src-shared)\n## `npm start`\n## Notes\n## Notes\n');
    expect([...anchors]).toEqual(['3-the-contract-src-shared', 'npm-start', 'notes', 'notes-1']);
  });
});
