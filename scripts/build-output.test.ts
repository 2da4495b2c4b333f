import { existsSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Script, createContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { IPC_EVENT_CHANNEL, IPC_INVOKE_CHANNEL } from '../src-main/host/transports/ipc-transport';
import { initialChunks as readInitialChunks } from './initial-chunks.mjs';

/**
 * The desktop window cannot open on these machines, so the classic Electron mistakes are caught by
 * reading what `npm run build` (electron-vite build) produced in out/ (ARCHITECTURE.md §8).
 */

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

function readOutput(path: string): string {
  const file = join(ROOT, path);
  if (!existsSync(file))
    throw new Error(`${path} is missing: run \`npm run build\` first (these tests read the build output).`);
  return readFileSync(file, 'utf8');
}

/** Every module name a bundle loads: static imports, re-exports, dynamic imports and require calls. */
function loadedModules(code: string): string[] {
  const patterns = [
    /^\s*import\s[^'"]*?from\s*["']([^"']+)["']/gm,
    /^\s*import\s*["']([^"']+)["']/gm,
    /^\s*export\s[^'"]*?from\s*["']([^"']+)["']/gm,
    /\bimport\(\s*["']([^"']+)["']\s*\)/g,
    /\brequire\(\s*["']([^"']+)["']\s*\)/g,
  ];
  return [...new Set(patterns.flatMap((pattern) => [...code.matchAll(pattern)].map((match) => match[1] ?? '')))];
}

/** An entry of out/main with every chunk it loads (the desktop main and the headless host share chunks). */
function mainBundle(entry: string): string {
  const seen = new Set<string>();
  const visit = (path: string): string => {
    if (seen.has(path)) return '';
    seen.add(path);
    const code = readOutput(path);
    const chunks = loadedModules(code).filter((specifier) => specifier.startsWith('.'));
    return [code, ...chunks.map((chunk) => visit(join(dirname(path), chunk)))].join('\n');
  };
  return visit(entry);
}

describe('out/preload/index.cjs', () => {
  it('is one CommonJS script: it compiles as a classic script, with no import or export', () => {
    const code = readOutput('out/preload/index.cjs');
    expect(() => new Script(code, { filename: 'index.cjs' })).not.toThrow();
    expect(code).not.toMatch(/^\s*(import|export)\s/m);
    expect(code).not.toMatch(/\bimport\(/);
  });

  it('requires electron and nothing else (a sandboxed preload can load nothing else)', () => {
    const code = readOutput('out/preload/index.cjs');
    expect(loadedModules(code)).toEqual(['electron']);
  });

  it('run as a sandboxed preload, exposes exactly { invoke, subscribe } as window.cairn on the transport channels', async () => {
    const code = readOutput('out/preload/index.cjs');
    const exposed: { key: string; api: Record<string, (...args: unknown[]) => unknown> }[] = [];
    const invoked: { channel: string; payload: unknown }[] = [];
    const listened: string[] = [];
    const required: string[] = [];
    const electron = {
      contextBridge: {
        exposeInMainWorld: (key: string, api: Record<string, (...args: unknown[]) => unknown>) =>
          exposed.push({ key, api }),
      },
      ipcRenderer: {
        invoke: (channel: string, payload: unknown) => {
          invoked.push({ channel, payload });
          return Promise.resolve({ ok: true, result: 'pong' });
        },
        on: (channel: string) => listened.push(channel),
        removeListener: () => {},
      },
    };
    // Only `require` is given; a bundle that reaches for module, exports or Node globals fails here.
    const context = createContext({
      require: (name: string) => {
        required.push(name);
        if (name !== 'electron') throw new Error(`a sandboxed preload cannot require ${name}`);
        return electron;
      },
    });
    new Script(code, { filename: 'index.cjs' }).runInContext(context);

    expect(required).toEqual(['electron']);
    expect(exposed.map((entry) => entry.key)).toEqual(['cairn']);
    const bridge = exposed[0]!.api;
    expect(Object.keys(bridge).sort()).toEqual(['invoke', 'subscribe']);
    expect(await bridge.invoke!('host.info', {})).toEqual({ ok: true, result: 'pong' });
    expect(invoked).toEqual([{ channel: IPC_INVOKE_CHANNEL, payload: { op: 'host.info', input: {} } }]);
    bridge.subscribe!(() => {});
    expect(listened).toEqual([IPC_EVENT_CHANNEL]);
  });
});

describe.each(['out/main/index.js', 'out/main/serve.js'])('%s (with its chunks)', (entry) => {
  it('keeps better-sqlite3 external: it is imported at run time, not bundled', () => {
    const code = mainBundle(entry);
    expect(loadedModules(code)).toContain('better-sqlite3');
    // Markers of better-sqlite3's own lib/database.js: present only if it had been bundled.
    expect(code).not.toContain('DEFAULT_ADDON');
    expect(code).not.toMatch(/require\(\s*["']bindings["']\s*\)/);
    expect(code).not.toContain('node_modules/better-sqlite3');
  });

  it('loads only electron, Node built-ins and declared dependencies (nothing from devDependencies)', () => {
    const code = mainBundle(entry);
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      dependencies?: Record<string, string>;
    };
    const dependencies = new Set(Object.keys(pkg.dependencies ?? {}));
    const builtins = new Set([...builtinModules, ...builtinModules.map((name) => `node:${name}`)]);
    const packageName = (specifier: string) =>
      specifier
        .split('/')
        .slice(0, specifier.startsWith('@') ? 2 : 1)
        .join('/');
    const unexpected = loadedModules(code).filter(
      (specifier) =>
        !specifier.startsWith('.') &&
        specifier !== 'electron' &&
        !builtins.has(specifier) &&
        !dependencies.has(packageName(specifier)),
    );
    expect(unexpected).toEqual([]);
  });
});

describe('out/main/index.js', () => {
  it('points the window at the preload file the preload build writes', () => {
    const code = readOutput('out/main/index.js');
    expect(code).toMatch(/["']preload["'],\s*["']index\.cjs["']/);
    expect(existsSync(join(ROOT, 'out/preload/index.cjs'))).toBe(true);
  });
});

describe('out/renderer/index.html', () => {
  function policyOf(html: string): Map<string, string[]> | null {
    const meta = [...html.matchAll(/<meta\b[^>]*>/gi)]
      .map((match) => match[0])
      .find((tag) => /http-equiv\s*=\s*["']Content-Security-Policy["']/i.test(tag));
    const content = meta?.match(/content\s*=\s*"([^"]*)"/i)?.[1] ?? meta?.match(/content\s*=\s*'([^']*)'/i)?.[1];
    if (content === undefined) return null;
    return new Map(
      content
        .split(';')
        .map((part) => part.trim().split(/\s+/))
        .filter((parts) => parts[0] !== '')
        .map(([name = '', ...values]) => [name.toLowerCase(), values]),
    );
  }

  it("carries a Content-Security-Policy meta tag that allows no inline, eval'd or remote script", () => {
    const policy = policyOf(readOutput('out/renderer/index.html'));
    expect(policy, 'index.html needs <meta http-equiv="Content-Security-Policy" content="…">').not.toBeNull();
    const scriptSources = policy!.get('script-src') ?? policy!.get('default-src');
    expect(scriptSources, 'the policy needs script-src (or default-src)').toBeDefined();
    for (const source of scriptSources!) {
      expect(source).not.toMatch(/^'unsafe-inline'$|^'unsafe-eval'$|^\*$|^https?:|^data:|^blob:/);
    }
  });

  it('has no inline scripts, and loads its files by relative paths (it is opened from file:// in Electron)', () => {
    const html = readOutput('out/renderer/index.html');
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attributes = '', body = ''] of scripts) {
      expect(attributes).toMatch(/\bsrc\s*=/);
      expect(body.trim()).toBe('');
    }
    const references = [...html.matchAll(/\b(?:src|href)\s*=\s*["']([^"']+)["']/gi)].map((match) => match[1] ?? '');
    for (const reference of references) expect(reference).not.toMatch(/^\/|^https?:/i);
  });
});

describe('the renderer’s first load', () => {
  const initialChunks = () => readInitialChunks((path) => readOutput(`out/renderer/${path}`));

  it('leaves zod, syntax highlighting, the Markdown parser, Settings, Automations, the WorkHub and the views of rarer moments to load on first use', () => {
    const initial = initialChunks();
    expect(initial.size).toBeGreaterThan(0);
    const code = [...initial.values()].join('\n');
    expect(code).not.toContain('hljs'); // highlight.js
    expect(code).not.toContain('mdastExtensions'); // react-markdown / remark
    expect(code).not.toContain('$ZodObject'); // zod: the renderer checks what it reads with plain guards
    expect(code).not.toContain('Give the connection a name.'); // the connection form loads with Settings
    expect(code).not.toContain('Starts 3 child agents at once'); // the Offline demo's directives (components/directives.ts)
    const dynamic = [...code.matchAll(/import\(\s*["'`]\.\/([^"'`]+)["'`]\s*\)/g)].map((match) => match[1] ?? '');
    const views = [
      ...['SettingsDialog', 'AutomationsView', 'WorkHubView', 'Markdown'],
      // The / menu, the model list, the MCP menu (only with a server); Install comes with FailedTurn (only after a turn failed for want of the agent).
      ...['SlashMenu', 'ModelComboboxPopup', 'McpMenu'],
      // A tool call's details, an agent's question or approval, a goal, and the notices and dialog that only a failure or a conflict brings.
      ...[
        'MessageSearchResults',
        'ToolCallDetails',
        'InteractionCard',
        'GoalBar',
        'CodexQuarantineNotice',
        'CodexThreadNotice',
        'LeftoverWorktreesNotice',
        'RevertConflictDialog',
      ],
      // A failed turn's texts, the Conversation menu's entries, the newcomer's welcome, a compaction's card, a child agent's card.
      ...['FailedTurn', 'ConversationMenuPopover', 'Welcome', 'CompactionCard', 'SpawnCard'],
    ];
    // Actions of rarer features load on their first call (state/deferred-actions.ts).
    views.push(
      'mcp-actions',
      'worktree-actions',
      'automations-actions',
      'workhub-actions',
      'changes-actions',
      'catalog-actions',
      'codex-actions',
      'acp-installs-actions',
      'memory-actions',
      'offline-demo-directives',
    );
    for (const view of views) {
      expect(
        dynamic.some((chunk) => chunk.startsWith(`${view}-`)),
        `${view} is a chunk loaded on first use`,
      ).toBe(true);
    }
  });

  it('stays within the issue-29 budget of 450 KB minified (449 KB today)', () => {
    const bytes = [...initialChunks().values()].reduce((total, code) => total + Buffer.byteLength(code), 0);
    expect(bytes).toBeLessThanOrEqual(450 * 1000);
  });
});
