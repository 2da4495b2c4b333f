#!/usr/bin/env node
/**
 * Renders build/icon.svg to build/icon.png (512×512, transparent corners) in headless Chromium, for
 * electron-builder (it derives the macOS and Windows icon formats from the PNG). Run it after
 * changing the SVG: node scripts/render-icon.mjs
 */
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright';
import { obtainChromium } from './chromium.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SIZE = 512;

const executablePath = await obtainChromium();
if (executablePath === null) process.exit(1);
const browser = await chromium.launch({
  executablePath,
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
});
try {
  const page = await browser.newPage({ viewport: { width: SIZE, height: SIZE } });
  const svg = readFileSync(join(ROOT, 'build', 'icon.svg'), 'utf8');
  await page.setContent(`<!doctype html><style>html,body{margin:0;background:transparent}svg{display:block;width:${SIZE}px;height:${SIZE}px}</style>${svg}`);
  await page.screenshot({ path: join(ROOT, 'build', 'icon.png'), omitBackground: true });
  console.log('Wrote build/icon.png');
} finally {
  await browser.close();
}
