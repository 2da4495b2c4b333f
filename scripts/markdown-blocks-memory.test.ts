/*
 * The renderer's Markdown blocks and memory, read in Node, whose V8 keeps strings as the renderer's
 * Chromium does: the heap after a collection shows what the blocks keep alive. Here, not beside the
 * code, because reading the heap takes Node's modules, which nothing under src-renderer/ imports.
 */
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { markdownBlocks } from '../src-renderer/markdown/markdown-blocks';

describe('markdownBlocks and memory', () => {
  it('gives blocks that keep nothing of the text they were cut from: a streamed message’s earlier versions are not kept by the blocks rendered from them', () => {
    setFlagsFromString('--expose-gc');
    const collect = runInNewContext('gc') as () => void;
    /** A streamed answer's chunks: parts of a heading, a one-line paragraph and a code block, as `/stream … markdown`. */
    const chunk = (index: number) =>
      index % 20 === 1
        ? `\n\n### Part ${index}\n\nA **bold** start, chunk ${index}, `
        : index % 20 === 11
          ? `done.\n\n\`\`\`ts\n// chunk ${index}\n`
          : index % 20 === 0
            ? '```'
            : index % 20 > 11
              ? `const value${index} = 'chunk ${index}';\n`
              : `then \`chunk ${index}\` and more, `;
    collect();
    const before = getHeapStatistics().used_heap_size;
    // What a memoised render keeps: each block as it was when it first appeared (an equal block is not
    // rendered again), the last one as it is now.
    const kept: string[] = [];
    let text = '';
    for (let index = 1; index <= 2_000; index += 1) {
      text += chunk(index);
      if (index % 10 !== 0) continue;
      markdownBlocks(text).forEach((block, at) => {
        if (kept[at] !== block) kept[at] = block;
      });
    }
    const finalLength = text.length;
    text = '';
    collect();
    const retained = getHeapStatistics().used_heap_size - before;
    expect(kept.join('\n\n').length).toBeGreaterThan(finalLength - 100);
    // The blocks' own characters (some 60 KB) and little more; a block that is a view into the text it was
    // cut from keeps ~200 versions of the answer instead, some 6 MB.
    expect(retained).toBeLessThan(1_000_000);
  });
});
