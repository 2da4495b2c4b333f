import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright';
import { CairnHost, freePort } from '../e2e/cairn-host';
import { startOpenAIChatServer, startOpenAIResponsesServer, textReply, type ProviderTestServer } from '../src-main/testing/provider-servers';
import type { BenchResult } from './bench-result';
import { benchPage, launchChromium, percentile } from './browser';

const TURNS = 6;

/**
 * Codex turn overhead: the time from `turn.start` to the first delta of the reply in the DOM, for a
 * Codex session (the real codex app-server) and for the built-in agent, both against a local fake
 * model that answers at once with the same scripted reply (the Responses API for Codex, Chat
 * Completions for the built-in agent: each in the format it speaks). Codex's first turn includes
 * starting its app-server and thread; it is reported apart, and the ratio compares the warm turns.
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
    const codex = await host.call('connection.create', { name: 'Codex', providerType: 'codex', baseUrl: responses.baseUrl });
    const builtIn = await host.call('connection.create', { name: 'Built-in', providerType: 'openai_compatible', baseUrl: chat.baseUrl, enabledModelIds: ['gpt-4o'] });
    const codexTimes = await turnsToFirstDelta(host, page, responses, codex.connection.connectionId, 'codex');
    const builtInTimes = await turnsToFirstDelta(host, page, chat, builtIn.connection.connectionId, 'builtin');
    const warmCodex = percentile(codexTimes.slice(1), 50);
    const warmBuiltIn = percentile(builtInTimes.slice(1), 50);
    return [
      { name: 'codex: first turn incl. app-server start → first delta in DOM', value: codexTimes[0] ?? Number.NaN, unit: 'ms' },
      { name: 'built-in agent: turn.start → first delta in DOM (p50)', value: warmBuiltIn, unit: 'ms' },
      { name: 'codex: turn.start → first delta in DOM (p50, warm)', value: warmCodex, unit: 'ms', ratio: warmCodex / warmBuiltIn, target: 'ratio ≤ 1.5' },
    ];
  } finally {
    await browser.close();
    await host.stop();
    await responses.close();
    await chat.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function turnsToFirstDelta(host: CairnHost, page: Page, server: ProviderTestServer, connectionId: string, label: string): Promise<number[]> {
  const { session } = await host.call('session.create', { title: `Bench ${label}`, connectionId });
  await page.locator(`[data-testid="session-row"][data-session-id="${session.sessionId}"]`).click();
  await page.getByTestId('transcript').waitFor();
  const times: number[] = [];
  for (let turn = 0; turn < TURNS; turn += 1) {
    const marker = `marker-${label}-${turn}`;
    server.enqueue(textReply(`${marker} is the reply.`, 1));
    await page.evaluate((wanted) => {
      const state = window as unknown as { __firstSeen?: number };
      delete state.__firstSeen;
      const observer = new MutationObserver(() => {
        const replies = [...document.querySelectorAll('[data-kind="assistant_message"]')].map((node) => node.textContent ?? '');
        if (replies.some((text) => text.includes(wanted))) {
          state.__firstSeen = performance.timeOrigin + performance.now();
          observer.disconnect();
        }
      });
      observer.observe(document.body, { subtree: true, childList: true, characterData: true });
    }, marker);
    const started = performance.timeOrigin + performance.now();
    await host.call('turn.start', { sessionId: session.sessionId, turnId: `${label}-${turn}`, text: `Say ${marker}` });
    await page.waitForFunction(() => (window as unknown as { __firstSeen?: number }).__firstSeen !== undefined, undefined, { timeout: 30_000 });
    const seen = await page.evaluate(() => (window as unknown as { __firstSeen: number }).__firstSeen);
    times.push(seen - started);
    await page.locator(`[data-testid="turn-status"][data-status="completed"]`).nth(turn).waitFor({ timeout: 30_000 });
  }
  return times;
}
