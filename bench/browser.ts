import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright';

/** Debian's Chromium (or CAIRN_CHROMIUM), launched the way the e2e suite launches it. */
export async function launchChromium(): Promise<Browser> {
  const executablePath = [process.env.CAIRN_CHROMIUM, '/usr/bin/chromium'].find(
    (path) => path !== undefined && existsSync(path),
  );
  return chromium.launch({
    ...(executablePath === undefined ? {} : { executablePath }),
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--disable-sync',
    ],
  });
}

export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? Number.NaN;
}

/**
 * A page for benchmark code. tsx compiles named functions inside `page.evaluate` callbacks with an
 * esbuild `__name` helper that does not exist in the page; this defines it as the identity.
 */
export async function benchPage(browser: Browser): Promise<Page> {
  const page = await browser.newPage();
  await page.addInitScript({ content: 'window.__name = (fn) => fn;' });
  return page;
}

/**
 * keydown → the frame after the next paint in a blank page holding one textarea, p95: what this
 * machine's Chromium needs for a keypress with no app at all — the floor under every keypress figure
 * (a keypress waits for the next frame, up to ~16.7 ms at 60 Hz, before any work of the app).
 */
export async function blankPageKeypressP95(browser: Browser, keys = 80): Promise<number> {
  const page = await benchPage(browser);
  try {
    await page.setContent('<textarea aria-label="Blank"></textarea>');
    await page.evaluate(() => {
      const frames: number[] = [];
      (window as unknown as { __frames: number[] }).__frames = frames;
      document.addEventListener(
        'keydown',
        (event) => {
          const started = event.timeStamp;
          requestAnimationFrame(() => setTimeout(() => frames.push(performance.now() - started), 0));
        },
        true,
      );
    });
    await page.focus('textarea');
    for (let key = 0; key < keys; key += 1)
      await page.keyboard.type(String.fromCharCode(97 + (key % 26)), { delay: 25 });
    await page.waitForFunction(
      (count) => (window as unknown as { __frames: number[] }).__frames.length >= count,
      keys,
      { timeout: 60_000 },
    );
    return percentile(await page.evaluate(() => [...(window as unknown as { __frames: number[] }).__frames]), 95);
  } finally {
    await page.close();
  }
}
