/** Types for initial-chunks.mjs (a plain Node script), so the build test and the first-load bench type-check. */

export declare function initialChunks(read: (path: string) => string): Map<string, string>;
