#!/usr/bin/env node
/**
 * The project's own postinstall (it runs after the dependencies' install scripts). npm leaves the
 * optional `electron` package out without a word when its binary cannot be downloaded; this says so
 * in one line, and what `npm start` will do instead. It never fails the install.
 */
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const ELECTRON_MISSING_NOTE =
  "Cairn: Electron's binary could not be installed here (npm left the optional `electron` package out), so `npm start` will run the headless host and print a URL to open in a browser. On a machine that can reach Electron's download host, `npm install` installs it and `npm start` opens the desktop window.";

/** The line to print after an install, or null when Electron is there. */
export function postinstallNote(projectDir) {
  return existsSync(join(projectDir, 'node_modules', 'electron', 'package.json')) ? null : ELECTRON_MISSING_NOTE;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  try {
    const note = postinstallNote(resolve(dirname(fileURLToPath(import.meta.url)), '..'));
    if (note !== null) console.log(note);
  } catch {
    // A note is not worth failing an install for.
  }
}
