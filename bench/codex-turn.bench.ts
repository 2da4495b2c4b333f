import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright';
import { CairnHost, freePort } from '../e2e/cairn-host';
import {
  startOpenAIChatServer,
  startOpenAIResponsesServer,
  textReply,
  type ProviderTestServer,
} from '../src-main/testing/provider-servers';
import type { BenchResult } from './bench-result';
import { benchPage, launchChromium, percentile } from './browser';
import { codexAloneTimes } from './codex-alone';

const TURNS = 6;

/**
 * Codex turn overhead: the time from `turn.start` to the first delta of the reply in the DOM, for a
 * Codex session (the real codex app-server) and for the built-in agent, both against a local fake
 * model that answers at once with the same scripted reply (the Responses API for Codex, Chat
 * Completions for the built-in agent: each in the format it speaks). Codex's first turn includes
 * starting its app-server and thread; it is reported apart, and the ratios compare the warm turns.
 * Codex itself takes ~25 ms per turn to build and send its model request, time Cairn cannot shorten:
 * it is measured in the same run by driving the app-server alone, and the target applies to what
 * Cairn adds around it (the whole minus Codex's own time) against the built-in agent's whole turn.
 */
export async function benchCodexTurn(): Promise<BenchResult[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'cairn-bench-codex-'));
  const host = new CairnHost(dataDir, 'bench-codex-token', await freePort());
  const responses = await startOpenAIResponsesServer();
  const chat = await startOpenAIChatServer({ apiKey: null });
  await host.start();
  const browser = await launchChromium();
  try {
    const page = await benchPage(browser);
    await host.open(page);
    const codex = await host.call('connection.create', {
      name: 'Codex',
      providerType: 'codex',
      baseUrl: responses.baseUrl,
    });
    const builtIn = await host.call('connection.create', {
      name: 'Built-in',
      providerType: 'openai_compatible',
      baseUrl: chat.baseUrl,
      enabledModelIds: ['gpt-4o'],
    });
    const aloneTimes = await codexAloneTimes(responses, TURNS);
    const codexTimes = await turnsToFirstDelta(host, page, responses, codex.connection.connectionId, 'codex');
    const builtInTimes = await turnsToFirstDelta(host, page, chat, builtIn.connection.connectionId, 'builtin');
    const warm = (times: TurnTimes[], part: keyof TurnTimes): number =>
      percentile(
        times.slice(1).map((time) => time[part]),
        50,
      );
    const warmCodex = warm(codexTimes, 'total');
    const warmBuiltIn = warm(builtInTimes, 'total');
    const codexOwn = percentile(aloneTimes.slice(1), 50);
    const cairnOnCodex = warmCodex - codexOwn;
    return [
      {
        name: 'codex: first turn incl. app-server start → first delta in DOM',
        value: codexTimes[0]?.total ?? Number.NaN,
        unit: 'ms',
      },
      { name: 'built-in agent: turn.start → first delta in DOM (p50)', value: warmBuiltIn, unit: 'ms' },
      {
        name: 'codex: turn.start → first delta in DOM (p50, warm)',
        value: warmCodex,
        unit: 'ms',
        ratio: warmCodex / warmBuiltIn,
      },
      { name: 'codex alone, no Cairn: turn/start → first delta (p50, warm)', value: codexOwn, unit: 'ms' },
      {
        name: "Cairn's part of a codex turn (whole − codex alone)",
        value: cairnOnCodex,
        unit: 'ms',
        ratio: cairnOnCodex / warmBuiltIn,
        target: 'ratio ≤ 1.5',
      },
      {
        name: 'built-in agent: turn.start → model request arrives (p50)',
        value: warm(builtInTimes, 'toRequest'),
        unit: 'ms',
      },
      {
        name: 'codex: turn.start → model request arrives (p50, warm)',
        value: warm(codexTimes, 'toRequest'),
        unit: 'ms',
      },
      {
        name: 'built-in agent: model request → first delta in DOM (p50)',
        value: warm(builtInTimes, 'fromRequest'),
        unit: 'ms',
      },
      {
        name: 'codex: model request → first delta in DOM (p50, warm)',
        value: warm(codexTimes, 'fromRequest'),
        unit: 'ms',
      },
    ];
  } finally {
    await browser.close();
    await host.stop();
    await responses.close();
    await chat.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** One turn's times in ms: the whole, and its two halves split at the model request's arrival. */
interface TurnTimes {
  readonly total: number;
  readonly toRequest: number;
  readonly fromRequest: number;
}

async function turnsToFirstDelta(
  host: CairnHost,
  page: Page,
  server: ProviderTestServer,
  connectionId: string,
  label: string,
): Promise<TurnTimes[]> {
  const { session } = await host.call('session.create', { title: `Bench ${label}`, connectionId });
  await page.locator(`[data-testid="session-row"][data-session-id="${session.sessionId}"]`).click();
  await page.getByTestId('transcript').waitFor();
  const times: TurnTimes[] = [];
  for (let turn = 0; turn < TURNS; turn += 1) {
    const marker = `marker-${label}-${turn}`;
    let requestAt = Number.NaN;
    server.enqueue(() => {
      requestAt = performance.timeOrigin + performance.now();
      return textReply(`${marker} is the reply.`, 1);
    });
    await page.evaluate((wanted) => {
      const state = window as unknown as { __firstSeen?: number };
      delete state.__firstSeen;
      const observer = new MutationObserver(() => {
        const replies = [...document.querySelectorAll('[data-kind="assistant_message"]')].map(
          (node) => node.textContent ?? '',
        );
        if (replies.some((text) => text.includes(wanted))) {
          state.__firstSeen = performance.timeOrigin + performance.now();
          observer.disconnect();
        }
      });
      observer.observe(document.body, { subtree: true, childList: true, characterData: true });
    }, marker);
    const started = performance.timeOrigin + performance.now();
    await host.call('turn.start', { sessionId: session.sessionId, turnId: `${label}-${turn}`, text: `Say ${marker}` });
    await page.waitForFunction(
      () => (window as unknown as { __firstSeen?: number }).__firstSeen !== undefined,
      undefined,
      { timeout: 30_000 },
    );
    const seen = await page.evaluate(() => (window as unknown as { __firstSeen: number }).__firstSeen);
    times.push({ total: seen - started, toRequest: requestAt - started, fromRequest: seen - requestAt });
    await page.locator(`[data-testid="turn-status"][data-status="completed"]`).nth(turn).waitFor({ timeout: 30_000 });
  }
  return times;
}
