import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright';

/** Debian's Chromium (or CAIRN_CHROMIUM), launched the way the e2e suite launches it. */
export async function launchChromium(): Promise<Browser> {
  const executablePath = [process.env.CAIRN_CHROMIUM, '/usr/bin/chromium'].find((path) => path !== undefined && existsSync(path));
  return chromium.launch({
    ...(executablePath === undefined ? {} : { executablePath }),
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync'],
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
