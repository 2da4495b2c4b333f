import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * Where the headless host (`npm run serve`, `npm start` without Electron) and `cairn acp` keep the
 * data when no `--data-dir` or CAIRN_DATA_DIR says otherwise: one per-user folder, so both find the
 * same host.
 */
export function defaultDataDir(): string {
  if (process.platform === 'darwin') return join(homedir(), 'Library', 'Application Support', 'Cairn');
  if (process.platform === 'win32') return join(process.env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), 'Cairn');
  return join(process.env.XDG_DATA_HOME ?? join(homedir(), '.local', 'share'), 'cairn');
}
