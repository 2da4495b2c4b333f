import { describe, expect, it } from 'vitest';
import { JsonRpcClient, JsonRpcError, type ServerNotification, type ServerRequest } from './json-rpc-client';

const CODEX = { name: 'Codex', process: 'the Codex app-server' };

describe('the JSON-RPC line client', () => {
  it('tells server requests from responses with the same id, numbers what the server says, and answers', async () => {
    const sent: string[] = [];
    const heard: Array<ServerNotification | ServerRequest> = [];
    const client = new JsonRpcClient(
      CODEX,
      (line) => sent.push(line) > 0,
      (message) => heard.push(message.value),
    );
    const pending = client.request('thread/start', { cwd: '/w' }, 1000);
    expect(JSON.parse(sent[0] ?? '{}')).toEqual({ id: 1, method: 'thread/start', params: { cwd: '/w' } });
    client.receive('{"id":1,"method":"item/tool/requestUserInput","params":{"itemId":"x"}}');
    client.receive('{"method":"turn/started","params":{}}');
    client.receive('{"id":1,"result":{"thread":{"id":"th"}}}');
    await expect(pending).resolves.toEqual({ thread: { id: 'th' } });
    expect(heard.map((message) => [message.seq, message.method])).toEqual([
      [1, 'item/tool/requestUserInput'],
      [2, 'turn/started'],
    ]);
    client.respond(1, { answers: {} });
    expect(JSON.parse(sent[1] ?? '{}')).toEqual({ id: 1, result: { answers: {} } });
  });

  it('bounds every request, and fails pending ones when the process goes away', async () => {
    const client = new JsonRpcClient(
      CODEX,
      () => true,
      () => {},
    );
    await expect(client.request('initialize', {}, 20)).rejects.toMatchObject({
      code: 'timeout',
      message: 'Codex did not answer initialize within 20 ms.',
    });
    const pending = client.request('turn/interrupt', {}, 5000);
    client.close('the Codex app-server exited');
    await expect(pending).rejects.toBeInstanceOf(JsonRpcError);
    await expect(client.request('turn/start', {}, 5000)).rejects.toMatchObject({ code: 'closed' });
  });

  it('reports an error response as an error with Codex’s message', async () => {
    const client = new JsonRpcClient(
      CODEX,
      () => true,
      () => {},
    );
    const pending = client.request('turn/start', {}, 1000);
    client.receive('{"id":1,"error":{"code":-32600,"message":"no such thread"}}');
    await expect(pending).rejects.toMatchObject({ code: -32600, message: 'turn/start: no such thread' });
  });
});
