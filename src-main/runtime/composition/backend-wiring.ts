import { OFFLINE_DEMO_CONNECTION_ID } from '../../../src-shared/connection-model';
import type { AgentService } from '../subagents/agent-service';
import type { AttachmentService } from '../attachments/attachment-service';
import type { AgentBackend } from '../contract/agent-backend';
import { createModelAgentBackend } from '../agent-backends/builtin/model-agent-backend';
import { createScriptedBackend } from '../agent-backends/scripted/scripted-backend';
import type { ChatService } from '../conversations/chat-service';
import type { CompactionRuntime } from '../compaction/compaction-runtime';
import type { ContextRuntime } from '../context/context-runtime';
import type { MemoryService } from '../memory/memory-service';
import type { SkillService } from '../skills/skill-service';
import type { ToolHost } from '../tools/tool-runner';
import { createCoordinationBackend } from '../workhub/coordination-backend';
import { WORKHUB_CONNECTION_ID, type WorkHubService } from '../workhub/workhub-service';
import type { BuiltLater } from './built-later';
import type { ModelAccess } from './model-access';
import type { RuntimeDeps } from './runtime-contract';

export interface BackendWiringDeps {
  readonly model: ModelAccess;
  readonly tools: ToolHost;
  readonly memory: MemoryService;
  readonly context: ContextRuntime;
  readonly chat: ChatService;
  readonly attachments: AttachmentService;
  readonly skills: BuiltLater<SkillService>;
  readonly agents: BuiltLater<AgentService>;
  readonly compaction: Pick<CompactionRuntime, 'compactInRun'>;
  readonly workhub: BuiltLater<WorkHubService>;
}

export interface AgentBackends {
  /** The built-in agent over a connection's model. */
  readonly model: AgentBackend;
  /** Backends bound to a connection id: the WorkHub's coordinator, the Offline demo's scripted agent, and any a test gives. */
  readonly fixed: ReadonlyMap<string, AgentBackend>;
}

/** Whether a connection is bound to a backend of its own (the WorkHub's, the Offline demo's, a test's), not a model. */
export function hasFixedBackend(runtime: RuntimeDeps, connectionId: string): boolean {
  return (
    runtime.backends.has(connectionId) ||
    connectionId === WORKHUB_CONNECTION_ID ||
    connectionId === OFFLINE_DEMO_CONNECTION_ID
  );
}

/** The agent backends that run in this process (Codex, a separate process, is wired in codex-wiring.ts). */
export function wireBackends(runtime: RuntimeDeps, deps: BackendWiringDeps): AgentBackends {
  const model = createModelAgentBackend({
    ...deps.model,
    tools: deps.tools,
    memoryBrief: (sessionId) => deps.memory.briefFor(sessionId),
    instructionsFor: (sessionId) => deps.skills.current?.promptFor(sessionId) ?? Promise.resolve(null),
    context: deps.context.model,
    now: () => runtime.clock.now(),
    preferencesOf: (sessionId, connectionId) => deps.chat.preferences.forRun(sessionId, connectionId),
    loadAttachment: (ref) => deps.attachments.load(ref),
    systemPromptFor: (sessionId) => deps.agents.current?.systemPromptFor(sessionId) ?? null,
    compact: (request) => deps.compaction.compactInRun(request),
    ...(runtime.retryBaseMs === undefined ? {} : { retryBaseMs: runtime.retryBaseMs }),
  });
  const fixed = new Map(runtime.backends);
  fixed.set(
    WORKHUB_CONNECTION_ID,
    createCoordinationBackend(() => deps.workhub.get()),
  );
  if (!fixed.has(OFFLINE_DEMO_CONNECTION_ID)) {
    fixed.set(OFFLINE_DEMO_CONNECTION_ID, createScriptedBackend({ tools: deps.tools, now: () => runtime.clock.now() }));
  }
  return { model, fixed };
}
