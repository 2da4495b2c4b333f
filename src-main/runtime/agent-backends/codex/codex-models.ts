import { z } from 'zod';
import type { ModelInfo } from '../../../../src-shared/connection-model';
import type { AgentLaunch } from '../agent-process/agent-process';
import { LiveAppServer, type CodexBounds } from './live-app-server';

const modelListSchema = z
  .object({
    data: z.array(
      z
        .object({ model: z.string().min(1), displayName: z.string().optional(), hidden: z.boolean().optional() })
        .passthrough(),
    ),
    nextCursor: z.string().nullable().optional(),
  })
  .passthrough();

/** At most this many pages of `model/list` are read. */
const MAX_PAGES = 5;

/**
 * The models a Codex app-server offers (`model/list`), read from a short-lived app-server started for
 * the purpose: initialize, page through the list, end the process group. Every await is bounded;
 * throws when Codex does not answer, so the caller can fall back to the list Cairn knows.
 */
export async function listCodexModels(
  launch: AgentLaunch,
  cairnVersion: string,
  bounds: Pick<CodexBounds, 'startMs' | 'requestMs' | 'killGraceMs' | 'killConfirmMs'>,
): Promise<ModelInfo[]> {
  const live = new LiveAppServer('model-list', launch, 'model-list');
  try {
    await live.initialize(cairnVersion, { ...bounds, interruptMs: bounds.requestMs, continuationMs: bounds.requestMs });
    const models: ModelInfo[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < MAX_PAGES; page += 1) {
      const result = modelListSchema.parse(
        await live.rpc.request('model/list', { limit: 100, ...(cursor === null ? {} : { cursor }) }, bounds.requestMs),
      );
      for (const model of result.data) {
        if (model.hidden === true || models.some((known) => known.modelId === model.model)) continue;
        models.push({
          modelId: model.model,
          label: model.displayName === undefined || model.displayName === '' ? model.model : model.displayName,
        });
      }
      cursor = result.nextCursor ?? null;
      if (cursor === null) break;
    }
    if (models.length === 0) throw new Error('Codex listed no models.');
    return models;
  } finally {
    await live.process.terminate(bounds.killGraceMs, bounds.killConfirmMs);
  }
}
