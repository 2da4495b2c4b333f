import { readFile, stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, normalize, resolve, sep } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
};

const BARE_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Cairn host</title></head>
<body><h1>Cairn host</h1><p>The host is running. The renderer has not been built yet: run <code>npm run build</code>.</p></body></html>`;

/** Serves the built renderer (or a bare page when there is none); `..` can never leave `root`. */
export function createStaticHandler(root: string | null) {
  const base = root === null ? null : resolve(root);
  return async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { allow: 'GET, HEAD' }).end();
      return;
    }
    const pathname = decodeSafely(new URL(request.url ?? '/', 'http://localhost').pathname);
    if (base === null || pathname === null) {
      send(response, 200, TYPES['.html'] ?? '', BARE_PAGE);
      return;
    }
    const relative = pathname === '/' ? 'index.html' : normalize(pathname).replace(/^([/\\])+/, '');
    const file = resolve(join(base, relative));
    if (file !== base && !file.startsWith(base + sep)) {
      send(response, 403, 'text/plain', 'Forbidden');
      return;
    }
    const target = (await isFile(file)) ? file : join(base, 'index.html');
    if (!(await isFile(target))) {
      send(response, 200, TYPES['.html'] ?? '', BARE_PAGE);
      return;
    }
    const body = await readFile(target);
    const immutable = target.includes(`${sep}assets${sep}`);
    response.writeHead(200, {
      'content-type': TYPES[extname(target)] ?? 'application/octet-stream',
      'cache-control': immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
    });
    response.end(request.method === 'HEAD' ? undefined : body);
  };
}

function send(response: ServerResponse, status: number, type: string, body: string) {
  response.writeHead(status, {
    'content-type': type,
    'cache-control': 'no-cache',
    'x-content-type-options': 'nosniff',
  });
  response.end(body);
}

function decodeSafely(pathname: string): string | null {
  try {
    const decoded = decodeURIComponent(pathname);
    return decoded.includes('\0') ? null : decoded;
  } catch {
    return null;
  }
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}
