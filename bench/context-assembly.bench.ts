import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ContextAssembler } from '../src-main/runtime/context/context-assembler';
import { inputBudgetOf, DEFAULT_MODEL_WINDOW } from '../src-shared/model-windows';
import { OffloadStore } from '../src-main/runtime/context/offload';
import { openStores, type Stores } from '../src-main/storage/stores';
import type { BenchResult } from './bench-result';

/** The default window's input budget (28,000 tokens): both sessions are larger than it. */
const BUDGET = inputBudgetOf(DEFAULT_MODEL_WINDOW);
const STEPS = 200;

/**
 * Context assembly per model step, a session of 5,000 turns against one of 50, in the same run and
 * the same database: the first step of a host (nothing cached) and the steady state (one step after
 * another, as a run goes). Each turn is a question, a tool call, its result and an answer, about
 * 1,000 tokens in all, so even the 50-turn session is larger than the window.
 */
export function benchContextAssembly(): BenchResult[] {
  const dataDir = mkdtempSync(join(tmpdir(), 'cairn-bench-context-'));
  const stores = openStores(dataDir);
  try {
    seed(stores, 'long', 5_000);
    seed(stores, 'short', 50);
    const measure = (sessionId: string, turns: number) => {
      const assembler = new ContextAssembler({ transcript: stores.transcript, offload: new OffloadStore(dataDir) });
      const request = {
        sessionId,
        turnId: `${sessionId}-t${turns - 1}`,
        turnText: `question ${turns - 1}`,
        budget: BUDGET,
        factor: 1,
      };
      let started = performance.now();
      assembler.assemble(request);
      const cold = performance.now() - started;
      started = performance.now();
      for (let step = 0; step < STEPS; step += 1) assembler.assemble(request);
      return { cold, warm: (performance.now() - started) / STEPS };
    };
    // Once each first, so both measure a warmed-up process.
    measure('short', 50);
    measure('long', 5_000);
    const short = measure('short', 50);
    const long = measure('long', 5_000);
    return [
      { name: 'context assembly, first step, 50 turns', value: short.cold, unit: 'ms' },
      {
        name: 'context assembly, first step, 5,000 turns',
        value: long.cold,
        unit: 'ms',
        ratio: long.cold / short.cold,
      },
      { name: 'context assembly per step, 50 turns', value: short.warm, unit: 'ms' },
      {
        name: 'context assembly per step, 5,000 turns',
        value: long.warm,
        unit: 'ms',
        ratio: long.warm / short.warm,
        target: '≤ 1.5 × 50 turns',
      },
    ];
  } finally {
    stores.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function seed(stores: Stores, sessionId: string, turns: number): void {
  const now = Date.now();
  stores.sessions.insert({
    sessionId,
    title: sessionId,
    titleSource: 'user',
    workspacePath: null,
    connectionId: 'offline-demo',
    model: null,
    permissionMode: 'ask',
    now,
  });
  const filler = 'The build passed on the second try after the flaky network test was retried. '.repeat(30);
  stores.transaction(() => {
    for (let turn = 0; turn < turns; turn += 1) {
      const turnId = `${sessionId}-t${turn}`;
      const runId = `${sessionId}-r${turn}`;
      stores.turns.insertTurn({
        sessionId,
        turnId,
        origin: 'user',
        text: `question ${turn}`,
        maxSteps: 8,
        runId,
        goalId: null,
        now,
      });
      const items = [
        { kind: 'user_message', text: `question ${turn} ${filler}`, data: null },
        {
          kind: 'tool_call',
          text: 'get_current_time',
          data: { toolCallId: `c${turn}`, toolName: 'get_current_time', input: {} },
        },
        {
          kind: 'tool_result',
          text: 'get_current_time',
          data: {
            toolCallId: `c${turn}`,
            toolName: 'get_current_time',
            output: { iso: new Date(now).toISOString() },
            isError: false,
          },
        },
        { kind: 'assistant_message', text: `answer ${turn} ${filler}`, data: null },
      ] as const;
      for (const [index, item] of items.entries()) {
        stores.transcript.append(
          {
            sessionId,
            itemId: `${turnId}-i${index}`,
            turnId,
            runId,
            kind: item.kind,
            text: item.text,
            state: 'final',
            data: item.data,
            now,
          },
          stores.sessions.reservePositions(sessionId, 1),
        );
      }
    }
  });
}
