import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * What the host loads at start is what its entry points reach through static value imports; `import
 * type` is erased and `import()` / a lazy `require` load on first use. These packages cost memory
 * the idle host should not pay (`npm run bench idle-memory` measures each), so no static import
 * chain from an entry point may reach them.
 */
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const ENTRY_POINTS = ['src-main/serve.ts', 'src-main/electron/main.ts'];
const LOADED_ON_FIRST_USE = [
  'gpt-tokenizer',
  'ai',
  '@ai-sdk/openai',
  '@ai-sdk/anthropic',
  '@ai-sdk/openai-compatible',
  'ollama-ai-provider-v2',
  '@modelcontextprotocol/sdk',
];

/** The specifiers of a file's static imports and re-exports that load something at run time. */
function valueImportsOf(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false);
  const specifiers: string[] = [];
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement) && ts.isStringLiteral(statement.moduleSpecifier)) {
      const clause = statement.importClause;
      if (clause?.isTypeOnly === true) continue;
      const bindings = clause?.namedBindings;
      const onlyTypes =
        clause !== undefined &&
        clause.name === undefined &&
        bindings !== undefined &&
        ts.isNamedImports(bindings) &&
        bindings.elements.every((element) => element.isTypeOnly);
      if (!onlyTypes) specifiers.push(statement.moduleSpecifier.text);
    } else if (
      ts.isExportDeclaration(statement) &&
      statement.moduleSpecifier !== undefined &&
      ts.isStringLiteral(statement.moduleSpecifier)
    ) {
      const clause = statement.exportClause;
      const onlyTypes =
        statement.isTypeOnly ||
        (clause !== undefined && ts.isNamedExports(clause) && clause.elements.every((element) => element.isTypeOnly));
      if (!onlyTypes) specifiers.push(statement.moduleSpecifier.text);
    }
  }
  return specifiers;
}

function resolveSource(from: string, specifier: string): string {
  const base = resolve(dirname(from), specifier);
  const found = [`${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), base].find(
    (path) => /\.tsx?$/.test(path) && existsSync(path),
  );
  if (found === undefined) throw new Error(`${relative(ROOT, from)}: cannot resolve ${specifier}`);
  return found;
}

function packageName(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? `${parts[0]}/${parts[1]}` : (parts[0] ?? specifier);
}

/** Every package reached from `entry` through static value imports, with the chain that reaches it. */
function packagesLoadedAtStart(entry: string): Map<string, string[]> {
  const packages = new Map<string, string[]>();
  const seen = new Set<string>();
  const walk = (file: string, chain: string[]) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const specifier of valueImportsOf(file)) {
      // A JSON file is data: it imports nothing.
      if (specifier.startsWith('.') && specifier.endsWith('.json')) continue;
      if (specifier.startsWith('.')) walk(resolveSource(file, specifier), [...chain, relative(ROOT, file)]);
      else if (!packages.has(packageName(specifier)))
        packages.set(packageName(specifier), [...chain, relative(ROOT, file)]);
    }
  };
  walk(join(ROOT, entry), []);
  return packages;
}

describe('what the host loads at start', () => {
  for (const entry of ENTRY_POINTS) {
    it(`${entry} reaches the start-up packages but none of those loaded on first use`, () => {
      const packages = packagesLoadedAtStart(entry);
      // The walk itself works: the packages every start needs are found.
      expect([...packages.keys()]).toEqual(expect.arrayContaining(['better-sqlite3', 'zod']));
      const eager = LOADED_ON_FIRST_USE.filter((name) => packages.has(name)).map(
        (name) => `${name} ← ${[...(packages.get(name) ?? [])].reverse().join(' ← ')}`,
      );
      expect(eager).toEqual([]);
    });
  }
});
