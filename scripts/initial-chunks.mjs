/**
 * The renderer's first load in a build: the entry script, the chunks index.html preloads, and every
 * chunk they import statically (a dynamic `import("./x.js")` is left for first use). `read` returns a
 * file of out/renderer by its path there ("index.html", "assets/index-….js").
 */
export function initialChunks(read) {
  const html = read('index.html');
  const pending = [
    ...html.matchAll(/<(?:script[^>]*\bsrc|link[^>]*\brel="modulepreload"[^>]*\bhref)="\.\/(assets\/[^"]+\.js)"/g),
  ].map((match) => match[1] ?? '');
  const chunks = new Map();
  for (let path = pending.pop(); path !== undefined; path = pending.pop()) {
    if (chunks.has(path)) continue;
    const code = read(path);
    chunks.set(path, code);
    // Static imports between chunks: `import{…}from"./x.js"`.
    for (const match of code.matchAll(
      /(?:^|[;}\s])(?:import|export)\s*(?:[^"'`();]*?from\s*)?["'`]\.\/([^"'`]+\.js)["'`]/g,
    ))
      pending.push(`assets/${match[1] ?? ''}`);
  }
  return chunks;
}
