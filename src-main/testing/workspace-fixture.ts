import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ToolContext, ToolOutcome, ToolSuspension } from '../runtime/contract/agent-tool';

/** For tests: a temp folder holding a `workspace/` and an `outside/` sibling, with a cleanup. */
export function tempWorkspace(): {
  base: string;
  root: string;
  outside: string;
  write(relative: string, content: string): string;
  cleanup(): void;
} {
  const base = realpathSync(mkdtempSync(path.join(tmpdir(), 'cairn-ws-')));
  const root = path.join(base, 'workspace');
  const outside = path.join(base, 'outside');
  mkdirSync(root);
  mkdirSync(outside);
  return {
    base,
    root,
    outside,
    write(relative, content) {
      const file = path.join(root, relative);
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, content);
      return file;
    },
    cleanup: () => rmSync(base, { recursive: true, force: true }),
  };
}

export function toolContext(overrides: Partial<ToolContext> = {}): ToolContext {
  return {
    sessionId: 's1',
    turnId: 't1',
    runId: 'r1',
    now: () => 1_000,
    signal: new AbortController().signal,
    ...overrides,
  };
}

/** The outcome of a tool that never suspends, with its output typed loosely for assertions. */
export function outcome(result: ToolOutcome | ToolSuspension): { isError: boolean; output: Record<string, unknown> } {
  if ('suspend' in result) throw new Error('The tool suspended');
  return { isError: result.isError, output: result.output as Record<string, unknown> };
}
