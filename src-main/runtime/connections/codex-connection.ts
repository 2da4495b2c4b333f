import type { ConnectionTestResult, ModelInfo } from '../../../src-shared/connection-model';
import { codexVersion, findCodexBinary } from './codex-binary';

/** The models codex-cli 0.171.0 ships metadata for (`model/list`); any other slug works with fallback metadata. */
/** How a Codex connection reaches its model: what a Codex session's turns are sent to. */
export interface CodexTarget {
  readonly binary: string;
  readonly model: string;
  /** An OpenAI-compatible Responses base URL (`…/v1`); null: OpenAI itself. */
  readonly baseUrl: string | null;
  /** An OpenAI key from Cairn's vault, passed through the environment; null with no base URL: Codex's own login. */
  readonly apiKey: string | null;
  /** Request and stream retries of the provider; left to Codex when undefined. */
  readonly retries?: number;
  /** More `-c key=value` settings, after Cairn's own. */
  readonly extraConfig?: readonly string[];
}

export const CODEX_MODELS: readonly ModelInfo[] = [
  'gpt-5.5',
  'gpt-5.6-sol',
  'gpt-5.6-terra',
  'gpt-5.6-luna',
  'gpt-6-sol',
  'gpt-6-astra',
  'gpt-6-luna',
  'gpt-6.1-sol',
  'gpt-6.1-terra',
  'gpt-6.2-sol',
  'gpt-6.2-astra',
].map((modelId) => ({ modelId, label: modelId }));

export const DEFAULT_CODEX_MODEL = 'gpt-5.5';

/** Settings → Test on a Codex connection: which codex was found, and its version. */
export async function testCodexConnection(
  given: string | null,
  how: { baseUrl: string | null; hasKey: boolean },
): Promise<ConnectionTestResult> {
  const started = Date.now();
  const binary = findCodexBinary(given);
  if (binary === null && given !== null) {
    return {
      verdict: 'unreachable',
      message: `The codex binary set on this connection is not there: ${given}.`,
      latencyMs: Date.now() - started,
    };
  }
  if (binary === null) {
    return {
      verdict: 'unreachable',
      message:
        'Codex was not found: install it (npm install -g @openai/codex) or give the path of the codex binary on the connection in Settings → Connections.',
      latencyMs: Date.now() - started,
    };
  }
  try {
    const version = await codexVersion(binary.path, 10_000);
    const where =
      binary.source === 'dependency'
        ? 'bundled with Cairn'
        : binary.source === 'path'
          ? 'on PATH'
          : 'set on this connection';
    const provider =
      how.baseUrl !== null
        ? `model server ${how.baseUrl}`
        : how.hasKey
          ? 'OpenAI with the stored key'
          : 'its own login';
    return {
      verdict: 'ok',
      message: `Codex ${version} (${where}: ${binary.path}), using ${provider}.`,
      latencyMs: Date.now() - started,
    };
  } catch (error) {
    return {
      verdict: 'server_error',
      message: `Codex at ${binary.path} did not run: ${error instanceof Error ? error.message : String(error)}`,
      latencyMs: Date.now() - started,
    };
  }
}
