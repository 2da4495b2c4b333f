/**
 * Local HTTP servers that speak each model provider's real streaming wire format, for tests.
 *
 *   const server = await startOpenAIChatServer();            // also the OpenAI-compatible server
 *   server.enqueue(textReply('Hello there', 3), openAIErrors.rateLimited(7));
 *   // point a ProviderTarget at { baseUrl: server.baseUrl, apiKey: TEST_API_KEY }
 *   server.modelCalls()[0].body                               // what the client sent
 *   server.toolResultsIn(1)                                   // tool results the 2nd call sent back
 *   await server.requests[0].outcome                          // 'completed' | 'client_closed' | 'dropped'
 *   await server.close();
 *
 * Each model call takes the next scripted reply (text in chunks, reasoning, tool calls with their
 * arguments split across chunks, usage, an HTTP error with the provider's own body and headers, a
 * stream that hangs until the client disconnects, or one the server drops). Every request is
 * recorded. The model-list endpoints list `options.models`.
 */
export { startAnthropicServer, anthropicErrors } from './anthropic-messages-server';
export { startGeminiServer, geminiErrors } from './gemini-generate-server';
export { startOllamaServer, ollamaErrors } from './ollama-chat-server';
export { startOpenAIChatServer, openAIErrors } from './openai-chat-server';
export { continuingModel } from './continuing-model';
export { startOpenAIResponsesServer, responsesErrors, lastUserText, inputItemsOf } from './openai-responses-server';
export {
  TEST_API_KEY,
  type QueuedReply,
  type ProviderTestServer,
  type ProviderTestServerOptions,
  type RecordedRequest,
  type RecordedToolResult,
  type RequestOutcome,
  type ScriptedModel,
} from './provider-test-server';
export {
  errorReply,
  hangReply,
  midStreamErrorReply,
  streamReply,
  textReply,
  toolCallReply,
  type ScriptedError,
  type ScriptedReply,
  type ScriptedStream,
  type ScriptedToolCall,
  type ScriptedUsage,
} from './scripted-reply';
