import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright';
import { OFFLINE_DEMO_CONNECTION_ID } from '../src-shared/connection-model';
import { CairnHost, freePort } from '../e2e/cairn-host';
import { testAgentCommand } from '../src-main/testing/acp-test-agent-launch';
import type { BenchResult } from './bench-result';
import { acpAloneTimes } from './acp-alone';
import { benchPage, launchChromium, percentile } from './browser';

const TURNS = 8;

/**
 * ACP turn overhead: the time from `turn.start` to the agent's first chunk in the DOM, in Chromium,
 * for a session on Cairn's ACP test agent (a real process speaking ACP over stdio) and for the
 * built-in scripted agent (the Offline demo). The ACP session's first turn includes starting the
 * agent process and its session; it is reported apart, and the figures compare the warm turns. The
 * agent's own time to its first chunk is measured in the same run by driving it alone with the SDK's
 * client; Cairn's part of an ACP turn (the whole minus the agent's own time) is held against the
 * built-in agent's whole turn.
 */
export async function benchAcpOverhead(): Promise<BenchResult[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'cairn-bench-acp-'));
  const agentState = mkdtempSync(join(tmpdir(), 'cairn-bench-acp-agent-'));
  const host = new CairnHost(dataDir, 'bench-acp-token', await freePort());
  await host.start();
  const browser = await launchChromium();
  try {
    const page = await benchPage(browser);
    await host.open(page);
    const acp = await host.call('connection.create', {
      name: 'ACP test agent',
      providerType: 'acp',
      acpAgent: testAgentCommand(agentState),
    });
    const aloneTimes = await acpAloneTimes(TURNS);
    const acpTimes = await turnsToFirstChunk(
      host,
      page,
      acp.connection.connectionId,
      'acp',
      (marker) => `text ${marker} is the reply.`,
    );
    const builtInTimes = await turnsToFirstChunk(
      host,
      page,
      OFFLINE_DEMO_CONNECTION_ID,
      'builtin',
      (marker) => `${marker} is the reply.`,
    );
    const warm = (times: readonly number[]) => percentile(times.slice(1), 50);
    const warmAcp = warm(acpTimes);
    const warmBuiltIn = warm(builtInTimes);
    const agentOwn = warm(aloneTimes);
    const cairnOnAcp = warmAcp - agentOwn;
    return [
      { name: 'acp: first turn incl. agent start → first chunk in DOM', value: acpTimes[0] ?? Number.NaN, unit: 'ms' },
      { name: 'built-in agent: turn.start → first chunk in DOM (p50)', value: warmBuiltIn, unit: 'ms' },
      {
        name: 'acp: turn.start → first chunk in DOM (p50, warm)',
        value: warmAcp,
        unit: 'ms',
        ratio: warmAcp / warmBuiltIn,
      },
      { name: 'acp agent alone, no Cairn: prompt → first chunk (p50)', value: agentOwn, unit: 'ms' },
      {
        name: "Cairn's part of an acp turn (whole − agent alone)",
        value: cairnOnAcp,
        unit: 'ms',
        ratio: cairnOnAcp / warmBuiltIn,
        target: 'ratio ≤ 1.2',
      },
    ];
  } finally {
    await browser.close();
    await host.stop();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(agentState, { recursive: true, force: true });
  }
}

/** Each turn's time from `turn.start` (sent) to a new assistant message with text in the DOM, in ms. */
async function turnsToFirstChunk(
  host: CairnHost,
  page: Page,
  connectionId: string,
  label: string,
  prompt: (marker: string) => string,
): Promise<number[]> {
  const { session } = await host.call('session.create', { title: `Bench ${label}`, connectionId });
  await page.locator(`[data-testid="session-row"][data-session-id="${session.sessionId}"]`).click();
  await page.getByTestId('transcript').waitFor();
  const times: number[] = [];
  for (let turn = 0; turn < TURNS; turn += 1) {
    await page.evaluate(() => {
      const state = window as unknown as { __firstSeen?: number };
      delete state.__firstSeen;
      const messages = () => [...document.querySelectorAll('[data-kind="assistant_message"]')];
      const before = new Set(messages());
      const observer = new MutationObserver(() => {
        if (messages().some((node) => !before.has(node) && (node.textContent ?? '').trim() !== '')) {
          state.__firstSeen = performance.timeOrigin + performance.now();
          observer.disconnect();
        }
      });
      observer.observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    const started = performance.timeOrigin + performance.now();
    await host.call('turn.start', {
      sessionId: session.sessionId,
      turnId: `${label}-${turn}`,
      text: prompt(`marker-${label}-${turn}`),
    });
    await page.waitForFunction(
      () => (window as unknown as { __firstSeen?: number }).__firstSeen !== undefined,
      undefined,
      { timeout: 60_000 },
    );
    times.push((await page.evaluate(() => (window as unknown as { __firstSeen: number }).__firstSeen)) - started);
    await turnCompleted(host, session.sessionId, `${label}-${turn}`);
  }
  return times;
}

/** Waits (polling the record, the transcript may have scrolled the turn out of the DOM) until the turn completed. */
async function turnCompleted(host: CairnHost, sessionId: string, turnId: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const { turn } = await host.call('turn.query', { sessionId, turnId });
    if (turn.status === 'completed') return;
    if (turn.status === 'failed' || turn.status === 'cancelled' || Date.now() > deadline)
      throw new Error(`turn ${turnId} ended ${turn.status}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
