import type { ContextMeter, ModelWindowOverride } from '../../../src-shared/context-model';
import { fail, ok, type Outcome } from '../../../src-shared/errors';
import type { Stores } from '../../storage/stores';
import type { EventBus } from '../ports/event-bus';
import type { Logger } from '../ports/ports';
import type { AgentTool } from '../contract/agent-tool';
import { ContextAssembler } from './context-assembler';
import type { RevealToolOutput } from './history-items';
import { createModelContext, type ModelContext, type ModelContextDeps } from './model-context';
import { OffloadStore } from './offload';
import { readOutputTool } from './read-output-tool';
import type { ReportedWindows } from './reported-windows';
import { RecentMap } from '../ports/recent-map';
import { SESSIONS_CALIBRATED } from './token-count';

const OVERRIDES_KEY = 'context.modelWindows';

export interface ModelWindowSettings {
  readonly revision: number;
  readonly overrides: readonly ModelWindowOverride[];
}

export interface ContextRuntimeDeps {
  readonly dataDir: string;
  readonly stores: Stores;
  readonly bus: EventBus;
  readonly reveal: RevealToolOutput;
  readonly logger: Logger;
  /** Windows model servers report (Ollama); without it only the table, overrides and defaults count. */
  readonly reported?: ReportedWindows;
  /** Compaction: the newest summary, a goal's pins and the threshold (runtime/compaction). */
  readonly summaries?: Pick<ModelContextDeps, 'summaryOf' | 'goalPinsOf' | 'compactionThreshold'>;
}

/** The context domain as the runtime composes it: fitting requests, offloaded output, meters, windows set in Settings. */
export interface ContextRuntime {
  readonly model: ModelContext;
  /** Tools the built-in agent gets from this domain (read_output). */
  readonly tools: readonly AgentTool[];
  /** The meter of a session's latest request since the host started; null before its first (or once 1,000 sessions were measured since). */
  meterOf(sessionId: string): ContextMeter | null;
  /** A meter a native agent reported (Codex's token usage): kept and published like Cairn's own. */
  noteMeter(sessionId: string, meter: ContextMeter): void;
  windowSettings(): ModelWindowSettings;
  /** Sets (or, with null, clears) the window of a connection's model. */
  setWindow(
    change: { connectionId: string; modelId: string; window: { contextWindow: number; outputReserve: number } | null },
    expectedRevision: number | undefined,
  ): Outcome<ModelWindowSettings, 'invalid_input' | 'revision_conflict'>;
}

export function createContextRuntime(deps: ContextRuntimeDeps): ContextRuntime {
  const offload = new OffloadStore(deps.dataDir, deps.stores.offloadUses);
  const unusable = offload.check();
  if (unusable !== null) {
    deps.logger.warn(
      'The context-offload store cannot be used; large tool outputs reach the model cut to their start and end',
      { reason: unusable },
    );
  }
  // Outputs only removed sessions used are deleted: now (a removal the last host ended before
  // finishing) and after each removal.
  offload.releaseUnused();
  // The meters of sessions measured most recently (a forgotten one reads as not measured yet, as after a restart).
  const meters = new RecentMap<string, ContextMeter>(SESSIONS_CALIBRATED);
  deps.bus.subscribe((event) => {
    if (event.kind !== 'session.removed') return;
    meters.delete(event.sessionId);
    offload.releaseUnused();
  });
  const windowSettings = (): ModelWindowSettings =>
    deps.stores.settings.get<ModelWindowSettings>(OVERRIDES_KEY) ?? { revision: 0, overrides: [] };
  const model = createModelContext({
    assembler: new ContextAssembler({ transcript: deps.stores.transcript, offload, reveal: deps.reveal }),
    ...deps.summaries,
    overrideOf(connectionId, modelId) {
      const found = windowSettings().overrides.find(
        (entry) => entry.connectionId === connectionId && entry.modelId === modelId,
      );
      return found === undefined ? null : { contextWindow: found.contextWindow, outputReserve: found.outputReserve };
    },
    reportedOf(connectionId, modelId) {
      const stored = deps.stores.connections.get(connectionId);
      if (stored === null || stored.providerType !== 'ollama') return null;
      // What the server said for this revision, else what it said when the models were fetched.
      return (
        deps.reported?.peek(connectionId, stored.revision, modelId) ??
        stored.models.find((model) => model.modelId === modelId)?.contextLength ??
        null
      );
    },
    async askReported(connectionId, target, signal) {
      const stored = deps.stores.connections.get(connectionId);
      if (stored === null || target.providerType !== 'ollama' || deps.reported === undefined) return;
      await deps.reported.ask(connectionId, stored.revision, target, target.modelId, signal);
    },
    onMeter(sessionId, meter) {
      meters.set(sessionId, meter);
      deps.bus.publish({ kind: 'context.changed', sessionId, meter });
    },
  });
  return {
    model,
    tools: [readOutputTool(offload)],
    meterOf: (sessionId) => meters.get(sessionId) ?? null,
    noteMeter(sessionId, meter) {
      meters.set(sessionId, meter);
      deps.bus.publish({ kind: 'context.changed', sessionId, meter });
    },
    windowSettings,
    setWindow(change, expectedRevision) {
      if (change.window !== null && change.window.outputReserve >= change.window.contextWindow) {
        return fail('invalid_input', 'The reserve for the answer must be smaller than the context window.');
      }
      return deps.stores.transaction(() => {
        const current = windowSettings();
        if (expectedRevision !== undefined && expectedRevision !== current.revision) {
          return fail('revision_conflict', 'The context windows were changed elsewhere. Reload them and try again.');
        }
        const others = current.overrides.filter(
          (entry) => !(entry.connectionId === change.connectionId && entry.modelId === change.modelId),
        );
        const overrides =
          change.window === null
            ? others
            : [...others, { connectionId: change.connectionId, modelId: change.modelId, ...change.window }];
        const next = { revision: current.revision + 1, overrides };
        deps.stores.settings.set(OVERRIDES_KEY, next);
        return ok(next);
      });
    },
  };
}
