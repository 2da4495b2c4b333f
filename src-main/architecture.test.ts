import { builtinModules } from 'node:module';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Proves ARCHITECTURE.md §2 by walking the import graph of the production sources:
 * electron/, serve.ts → host/ → runtime/ → storage/ → src-shared/; the renderer and the preload
 * reach only src-shared; better-sqlite3 only in storage/; electron only in electron/ and the preload.
 */
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SOURCE_DIRS = ['src-shared', 'src-main', 'src-renderer', 'src-preload'];
const NODE_BUILTINS = new Set([...builtinModules, ...builtinModules.map((name) => `node:${name}`)]);

type Layer =
  | 'shared'
  | 'storage'
  | 'runtime'
  | 'host'
  | 'electron'
  | 'serve'
  | 'host-client'
  | 'acp-agent'
  | 'renderer'
  | 'preload'
  | 'other';

const MAY_IMPORT: Record<Layer, readonly Layer[]> = {
  shared: ['shared'],
  storage: ['storage', 'shared'],
  runtime: ['runtime', 'storage', 'shared'],
  host: ['host', 'runtime', 'storage', 'shared'],
  electron: ['electron', 'host', 'host-client', 'runtime', 'storage', 'shared'],
  serve: ['host', 'host-client', 'runtime', 'storage', 'shared'],
  // Another process than the host's: it reaches the host through its local socket, never its database.
  'host-client': ['host-client', 'shared'],
  'acp-agent': ['acp-agent', 'host-client', 'shared'],
  renderer: ['renderer', 'shared'],
  preload: ['preload', 'shared'],
  other: [],
};

function layerOf(file: string): Layer {
  const path = relative(ROOT, file).replaceAll('\\', '/');
  if (path.startsWith('src-shared/')) return 'shared';
  if (path.startsWith('src-renderer/')) return 'renderer';
  if (path.startsWith('src-preload/')) return 'preload';
  if (path === 'src-main/serve.ts') return 'serve';
  for (const layer of ['storage', 'runtime', 'host-client', 'host', 'electron', 'acp-agent'] as const) {
    if (path.startsWith(`src-main/${layer}/`)) return layer;
  }
  return 'other';
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'testing' || name === 'node_modules' ? [] : sourceFiles(path);
    return /\.(ts|tsx)$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });
}

function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specifiers = [
    ...text.matchAll(
      /(?:import|export)[^'"`;]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|require\(\s*['"]([^'"]+)['"]\s*\)|^\s*import\s+['"]([^'"]+)['"]/gm,
    ),
  ];
  return specifiers.map((match) => match[1] ?? match[2] ?? match[3] ?? match[4] ?? '').filter(Boolean);
}

const files = SOURCE_DIRS.flatMap((dir) => {
  try {
    return sourceFiles(join(ROOT, dir));
  } catch {
    return [];
  }
});

describe('the dependency direction', () => {
  it('finds the sources', () => {
    expect(files.length).toBeGreaterThan(20);
  });

  it('every relative import points down the layers', () => {
    const violations: string[] = [];
    for (const file of files) {
      const from = layerOf(file);
      for (const specifier of importsOf(file)) {
        if (!specifier.startsWith('.')) continue;
        const to = layerOf(resolve(dirname(file), specifier));
        if (to === 'other' && from !== 'other')
          violations.push(`${relative(ROOT, file)} → ${specifier} (outside the layers)`);
        else if (from !== 'other' && !MAY_IMPORT[from].includes(to))
          violations.push(`${relative(ROOT, file)} (${from}) → ${specifier} (${to})`);
      }
    }
    expect(violations).toEqual([]);
  });

  it('packages stay where they belong', () => {
    const violations: string[] = [];
    for (const file of files) {
      const layer = layerOf(file);
      for (const specifier of importsOf(file)) {
        if (specifier.startsWith('.')) continue;
        const where = `${relative(ROOT, file)} imports ${specifier}`;
        if (specifier === 'better-sqlite3' && layer !== 'storage') violations.push(where);
        if (specifier === 'electron' && layer !== 'electron' && layer !== 'preload') violations.push(where);
        if (NODE_BUILTINS.has(specifier) && ['shared', 'renderer', 'preload'].includes(layer)) violations.push(where);
        if (['react', 'react-dom', 'zustand'].includes(specifier) && layer !== 'renderer') violations.push(where);
        if (layer === 'shared' && specifier !== 'zod') violations.push(where);
      }
    }
    expect(violations).toEqual([]);
  });
});
