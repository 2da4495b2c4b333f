/**
 * Ollama reports a failure inside an already-open stream as a line `{"error": "..."}`. The Ollama
 * provider drops such a line (it only logs a warning) and the step would end as if it had finished.
 * This fetch wrapper ends the response body at that line and hands Ollama's error value to `report`,
 * so the step can fail with it after the text that came before. Every other line passes unchanged.
 * (Erroring the body instead would lose that text: an errored stream discards what it still holds.)
 */
export function reportingOllamaStreamErrors(
  fetchImpl: typeof fetch | undefined,
  report: (error: unknown) => void,
): typeof fetch {
  return async (input, init) => {
    const response = await (fetchImpl ?? fetch)(input, init);
    if (!response.ok || response.body === null || !(response.headers.get('content-type') ?? '').includes('ndjson'))
      return response;
    return new Response(untilErrorLine(response.body, report), {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}

function untilErrorLine(
  body: ReadableStream<Uint8Array>,
  report: (error: unknown) => void,
): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  let partial = '';

  /** Enqueues the lines up to an error line; true when one was found (and reported). */
  const emit = (lines: readonly string[], controller: ReadableStreamDefaultController<Uint8Array>): boolean => {
    const clean: string[] = [];
    let failed = false;
    for (const line of lines) {
      const error = errorOf(line);
      if (error !== undefined) {
        report(error);
        failed = true;
        break;
      }
      clean.push(line);
    }
    if (clean.length > 0) controller.enqueue(encoder.encode(`${clean.join('\n')}\n`));
    return failed;
  };

  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) {
        const rest = partial + decoder.decode();
        if (rest.trim() !== '') emit([rest], controller);
        controller.close();
        return;
      }
      const lines = (partial + decoder.decode(value, { stream: true })).split('\n');
      partial = lines.pop() ?? '';
      if (emit(lines, controller)) {
        controller.close();
        await reader.cancel().catch(() => {});
      }
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
}

/** The `error` value of an error line, or undefined for any other line. */
function errorOf(line: string): unknown {
  if (!line.includes('"error"')) return undefined;
  try {
    const value: unknown = JSON.parse(line);
    if (typeof value === 'object' && value !== null && 'error' in value && !('message' in value))
      return (value as { error: unknown }).error;
  } catch {
    // Not JSON: the provider's own parser will say so.
  }
  return undefined;
}
