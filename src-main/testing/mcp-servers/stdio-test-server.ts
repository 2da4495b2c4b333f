import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { fileURLToPath } from 'node:url';
import { createTestMcpServer } from './test-tools';
import { testProgramArgs } from '../test-programs';

/** The command that runs this server over stdio (its bundle, or the source through tsx). */
export function stdioTestServerCommand(): { command: string; args: string[] } {
  return { command: process.execPath, args: testProgramArgs('src-main/testing/mcp-servers/stdio-test-server.ts') };
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
