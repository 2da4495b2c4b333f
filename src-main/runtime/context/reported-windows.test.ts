import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ollamaContextLength } from '../connections/providers/model-details';
import { startOllamaServer, type ProviderTestServer } from '../../testing/provider-servers';
import { ReportedWindows } from './reported-windows';

const servers: ProviderTestServer[] = [];
const silent: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
  for (const server of silent.splice(0)) {
    server.closeAllConnections();
    server.close();
  }
});

const shows = (server: ProviderTestServer) => server.requests.filter((request) => request.path === '/api/show').length;

describe('reported windows', () => {
  it('asks once per connection revision, and again after the connection changed', async () => {
    const server = await startOllamaServer();
    servers.push(server);
    const endpoint = { providerType: 'ollama' as const, baseUrl: server.baseUrl, apiKey: null };
    const reported = new ReportedWindows({ lookup: ollamaContextLength });
    expect(reported.peek('c1', 3, 'llama3.2:latest')).toBeUndefined();
    const [first, second] = await Promise.all([
      reported.ask('c1', 3, endpoint, 'llama3.2:latest'),
      reported.ask('c1', 3, endpoint, 'llama3.2:latest'),
    ]);
    expect([first, second]).toEqual([131_072, 131_072]);
    expect(await reported.ask('c1', 3, endpoint, 'llama3.2:latest')).toBe(131_072);
    expect(shows(server)).toBe(1);
    expect(reported.peek('c1', 3, 'llama3.2:latest')).toBe(131_072);
    expect(await reported.ask('c1', 4, endpoint, 'llama3.2:latest')).toBe(131_072);
    expect(shows(server)).toBe(2);
    // "No window" is an answer too, kept like the others.
    expect(await reported.ask('c1', 4, endpoint, 'unknown:1b')).toBeNull();
    expect(reported.peek('c1', 4, 'unknown:1b')).toBeNull();
  });

  it('asks about many models a few at a time, and keeps a bounded number of answers', async () => {
    const models = Array.from({ length: 12 }, (_, index) => ({
      id: `m${index}`,
      label: `m${index}`,
      contextLength: 1_000 * (index + 1),
    }));
    const server = await startOllamaServer({ models });
    servers.push(server);
    const reported = new ReportedWindows({ lookup: ollamaContextLength, maxEntries: 5 });
    const found = await reported.askMany(
      'c1',
      1,
      { providerType: 'ollama', baseUrl: server.baseUrl, apiKey: null },
      models.map((model) => model.id),
    );
    expect([...found.entries()].sort(([a], [b]) => Number(a.slice(1)) - Number(b.slice(1)))).toEqual(
      models.map((model) => [model.id, model.contextLength]),
    );
    expect(shows(server)).toBe(12);
    const kept = models.filter((model) => reported.peek('c1', 1, model.id) !== undefined);
    expect(kept).toHaveLength(5);
  });

  it('gives up on a server that does not answer within the bound, and asks again next time', async () => {
    let received = 0;
    const server = createServer(() => {
      received += 1; // never answers
    });
    silent.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const reported = new ReportedWindows({ lookup: ollamaContextLength, timeoutMs: 100 });
    const started = Date.now();
    expect(
      await reported.ask('c1', 1, { providerType: 'ollama', baseUrl, apiKey: null }, 'llama3.2:latest'),
    ).toBeNull();
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(reported.peek('c1', 1, 'llama3.2:latest')).toBeUndefined();
    await reported.ask('c1', 1, { providerType: 'ollama', baseUrl, apiKey: null }, 'llama3.2:latest');
    expect(received).toBe(2);
  });
});
