import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { fileURLToPath } from 'node:url';
import { createTestMcpServer } from './test-tools';

/** The command that runs this server over stdio (Node with tsx). */
export function stdioTestServerCommand(): { command: string; args: string[] } {
  return { command: process.execPath, args: ['--import', 'tsx', fileURLToPath(import.meta.url)] };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const server = createTestMcpServer({
    crash() {
      process.stderr.write('test server: crashing on purpose\n');
      process.exit(3);
    },
  });
  process.stderr.write(
    `test server ready${process.env.CAIRN_TEST_SECRET === undefined ? '' : ` with secret ${process.env.CAIRN_TEST_SECRET}`}\n`,
  );
  await server.connect(new StdioServerTransport());
}
