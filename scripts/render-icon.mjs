#!/usr/bin/env node
/**
 * Renders build/icon.svg to build/icon.png (512×512, transparent corners) in headless Chromium, for
 * electron-builder (it derives the macOS and Windows icon formats from the PNG), and to the web app's
 * icons in src-renderer/public/icons/ (the manifest's 192 and 512 px, and a 180 px Apple touch icon on
 * the tile's own colour, since iOS shows transparent corners black). Run it after changing the SVG:
 * node scripts/render-icon.mjs
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright';
import { obtainChromium } from './chromium.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const TARGETS = [
  { path: 'build/icon.png', size: 512, background: 'transparent' },
  { path: 'src-renderer/public/icons/icon-512.png', size: 512, background: 'transparent' },
  { path: 'src-renderer/public/icons/icon-192.png', size: 192, background: 'transparent' },
  { path: 'src-renderer/public/icons/apple-touch-icon.png', size: 180, background: '#25395a' },
];

const executablePath = await obtainChromium();
if (executablePath === null) process.exit(1);
const browser = await chromium.launch({
  executablePath,
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--no-first-run',
  ],
});
try {
  const svg = readFileSync(join(ROOT, 'build', 'icon.svg'), 'utf8');
  for (const { path, size, background } of TARGETS) {
    const page = await browser.newPage({ viewport: { width: size, height: size } });
    await page.setContent(
      `<!doctype html><style>html,body{margin:0;background:${background}}svg{display:block;width:${size}px;height:${size}px}</style>${svg}`,
    );
    mkdirSync(dirname(join(ROOT, path)), { recursive: true });
    await page.screenshot({ path: join(ROOT, path), omitBackground: background === 'transparent' });
    await page.close();
    console.log(`Wrote ${path}`);
  }
} finally {
  await browser.close();
}
