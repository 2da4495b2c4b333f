/** The parts of the ACP backend built on the ACP SDK: imported on first use by `acp-agent-loader.ts`. */
export { readTextFile, writeTextFile } from './acp-fs';
export { LiveAcpAgent } from './live-acp-agent';
