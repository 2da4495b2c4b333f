import {
  AGENT_DEPTH_LIMIT,
  AGENT_FAN_OUT_LIMIT,
  agentTreeId,
  type AgentChildRecord,
  type AgentTree,
  type AgentTreeNode,
} from '../../../src-shared/agent-model';
import { fail, ok, type Outcome } from '../../../src-shared/errors';
import type { ChangeEvent } from '../../../src-shared/events';
import { isActiveStatus, type PermissionMode } from '../../../src-shared/model';
import type { StoredAgentChild } from '../../storage/agent-store';
import type { Stores } from '../../storage/stores';
import type { EventBus } from '../ports/event-bus';
import type { AdmissionGate } from '../lifecycle/admission-gate';
import type { Clock, Ids, Logger } from '../ports/ports';
import type { AgentTool, ToolContext } from '../contract/agent-tool';
import type { TurnService } from '../turns/turn-service';
import { loadAgentCatalog, type AgentCatalog, type AgentDefinition } from './agent-definitions';
import { narrower } from '../sessions/child-permission-mode';
import { waitForChildren } from './child-waiter';
import { childSessionTitle } from '../sessions/session-title';

export interface AgentServiceDeps {
  readonly stores: Stores;
  readonly bus: EventBus;
  readonly clock: Clock;
  readonly ids: Ids;
  readonly logger: Logger;
  readonly dataDir: string;
  readonly admission: AdmissionGate;
  readonly turns: () => TurnService;
  /** Gives a session its own git worktree (idempotent); a spawn with `worktree` uses it for the child. */
  readonly giveWorktree: (sessionId: string) => Promise<Outcome<unknown>>;
}

/** Stop sources of subagents: the parent (or root) was stopped; the parent agent stopped this child; the tree failed. */
export const PARENT_STOPPED = 'parent_stopped';
export const STOPPED_BY_PARENT = 'stopped_by_parent';
export const TREE_FAILED = 'tree_failed';

export interface SpawnRequest {
  readonly agent: string;
  readonly task: string;
  readonly wait: boolean;
  /** The child works in a git worktree of its own, branched off the parent's workspace. */
  readonly worktree?: boolean;
  readonly spawnId?: string;
}

/** The result a tool hands back to the model: data, or a refusal in words. */
export type ToolAnswer = { readonly output: unknown; readonly isError: boolean };

/**
 * Subagents: child sessions started by an agent's tool call, linked to the parent's session, turn,
 * run and tool call. A child's permission mode is never wider than its parent's; a spawn replayed
 * with the same spawn id returns the child it made; a parent's Stop stops every live descendant
 * (each records `parent_stopped`).
 */
export class AgentService {
  constructor(private readonly deps: AgentServiceDeps) {
    deps.bus.subscribe((event) => this.onEvent(event));
  }

  catalog(sessionId: string): AgentCatalog {
    return loadAgentCatalog(this.deps.dataDir, this.deps.stores.sessions.get(sessionId)?.workspacePath ?? null);
  }

  /** The child link of a session, or null for a session no agent started. */
  childLink(sessionId: string): StoredAgentChild | null {
    return this.deps.stores.agents.get(sessionId);
  }

  /**
   * The tools a session offers: a child's are its definition's share of its parent's surface; the
   * agent tools are offered while the session may still spawn (above the depth limit).
   */
  surface(sessionId: string, base: readonly AgentTool[], agentTools: readonly AgentTool[]): AgentTool[] {
    const link = this.childLink(sessionId);
    const own =
      link === null ? [...base] : base.filter((tool) => link.toolNames === null || link.toolNames.includes(tool.name));
    const depth = link?.depth ?? 0;
    const explore = link?.agentId === 'explore';
    const mayUse = (tool: AgentTool) => !explore || tool.readOnly;
    return [...own.filter(mayUse), ...(depth < AGENT_DEPTH_LIMIT ? agentTools : [])];
  }

  /** What a session's model is told besides Cairn's own prompt: a child's instructions; a parent's children. */
  systemPromptFor(sessionId: string): string | null {
    const link = this.childLink(sessionId);
    const parts: string[] = [];
    if (link !== null) parts.push(link.systemPrompt, `Your task, from the agent that started you:\n${link.task}`);
    const children = this.deps.stores.agents.childrenOf(sessionId);
    if (children.length > 0) {
      const lines = children.map((child) => {
        const latest = this.deps.stores.turns.latestTurn(child.childSessionId);
        const reason =
          latest === null || isActiveStatus(latest.status) || latest.status === 'completed'
            ? null
            : latest.latestRun.terminalReason;
        const status = `${latest?.status ?? 'not started'}${reason === null ? '' : ` (${reason})`}`;
        return `- ${child.childSessionId} (${child.agentId}): ${status} — ${child.task.slice(0, 120)}`;
      });
      parts.push(
        `Child agents you started, and their status now (use wait_agents for a report; resume_agent resumes an interrupted one; do not spawn a child again for the same work):\n${lines.join('\n')}`,
      );
    }
    return parts.length === 0 ? null : parts.join('\n\n');
  }

  async spawn(context: ToolContext, request: SpawnRequest): Promise<ToolAnswer> {
    const { stores } = this.deps;
    // A spawn id the model chose is its own name for the spawn, so it is scoped to the parent session;
    // without one, the tool call names it (a replayed call returns the same child).
    const spawnId =
      request.spawnId === undefined
        ? `${context.sessionId}:${context.toolCallId ?? context.runId}`
        : `${context.sessionId}:spawn:${request.spawnId}`;
    const existing = stores.agents.bySpawnId(spawnId);
    if (existing !== null) {
      if (existing.parentSessionId !== context.sessionId)
        return refusal('That spawn id belongs to another agent’s child.');
      const isolated = await this.isolate(existing, request);
      if (isolated !== null) return isolated;
      const started = this.startTask(existing);
      if (started !== null) return started;
      return this.spawned(existing, request.wait, context.signal, true);
    }
    if (stores.agents.spawnRemoved(spawnId)) {
      return refusal(
        'The person deleted the child agent this spawn started; it is not started again. Do the work yourself or spawn a new child with another spawn id.',
      );
    }
    const parent = stores.sessions.get(context.sessionId);
    if (parent === null) return refusal('The parent session no longer exists.');
    const link = this.childLink(context.sessionId);
    const depth = (link?.depth ?? 0) + 1;
    const rootSessionId = link?.rootSessionId ?? context.sessionId;
    if (depth > AGENT_DEPTH_LIMIT)
      return refusal(`Child agents may be nested at most ${AGENT_DEPTH_LIMIT} deep; do this work yourself.`);
    if (stores.agents.countForTurn(context.sessionId, context.turnId) >= AGENT_FAN_OUT_LIMIT) {
      return refusal(
        `One turn may start at most ${AGENT_FAN_OUT_LIMIT} child agents; wait for the ones you have and reuse them with send_agent.`,
      );
    }
    if (stores.agents.treeFailure(rootSessionId) !== null)
      return refusal('This agent tree was stopped after a failure; no new child can start in it.');
    const refused = this.deps.admission.refusal();
    if (refused !== null) return refusal(refused.error.message);
    const definition = this.catalog(context.sessionId).definitions.find((candidate) => candidate.id === request.agent);
    if (definition === undefined) {
      const known = this.catalog(context.sessionId)
        .definitions.map((candidate) => candidate.id)
        .join(', ');
      return refusal(`There is no agent "${request.agent}". Available: ${known}.`);
    }
    const child = this.createChild(context, {
      spawnId,
      depth,
      rootSessionId,
      definition,
      task: request.task,
      parentMode: parent.permissionMode,
    });
    const isolated = await this.isolate(child, request);
    if (isolated !== null) return isolated;
    const started = this.startTask(child);
    if (started !== null) return started;
    return this.spawned(child, request.wait, context.signal, false);
  }

  async wait(context: ToolContext, childIds: readonly string[], timeoutMs: number | null): Promise<ToolAnswer> {
    const foreign = childIds.filter((childId) => this.childLink(childId)?.parentSessionId !== context.sessionId);
    if (foreign.length > 0)
      return refusal(`These are not children of this agent (or their sessions were deleted): ${foreign.join(', ')}.`);
    const outcomes = await waitForChildren(this.deps, childIds, timeoutMs, context.signal);
    return { output: { children: outcomes }, isError: false };
  }

  send(context: ToolContext, childId: string, text: string): ToolAnswer {
    if (this.childLink(childId)?.parentSessionId !== context.sessionId)
      return refusal(`${childId} is not a child of this agent.`);
    const messageId = `msg-${context.toolCallId ?? context.runId}`;
    const submitted = this.deps.turns().submitMessage(childId, messageId, text);
    if (!submitted.ok) return refusal(submitted.error.message);
    return { output: { childSessionId: childId, disposition: submitted.result.disposition }, isError: false };
  }

  stopChild(context: ToolContext, childId: string): ToolAnswer {
    if (this.childLink(childId)?.parentSessionId !== context.sessionId)
      return refusal(`${childId} is not a child of this agent.`);
    const stopped = this.deps.turns().stop(childId, undefined, STOPPED_BY_PARENT);
    if (!stopped.ok) return refusal(stopped.error.message);
    return {
      output: { childSessionId: childId, outcome: stopped.result.outcome, status: stopped.result.turn?.status ?? null },
      isError: false,
    };
  }

  resumeChild(context: ToolContext, childId: string): ToolAnswer {
    const link = this.childLink(childId);
    if (link === null || link.parentSessionId !== context.sessionId)
      return refusal(`${childId} is not a child of this agent.`);
    const refused = this.deps.admission.refusal();
    if (refused !== null) return refusal(refused.error.message);
    const latest = this.deps.stores.turns.latestTurn(childId);
    if (latest === null) {
      // Made, but cut off before its task began (the host died in between): begin it now.
      const started = this.startTask(link);
      if (started !== null) return started;
      return {
        output: { childSessionId: childId, status: this.deps.stores.turns.latestTurn(childId)?.status ?? 'running' },
        isError: false,
      };
    }
    const resumed = this.deps.turns().resume(childId, latest.turnId);
    if (!resumed.ok) return refusal(resumed.error.message);
    return { output: { childSessionId: childId, status: resumed.result.turn.status }, isError: false };
  }

  /** Every child link, for clients that nest children under their parents. */
  links(): AgentChildRecord[] {
    return this.deps.stores.agents.all(5000).map(({ systemPrompt: _prompt, toolNames: _tools, ...record }) => record);
  }

  /** The whole tree the session belongs to, with statuses and the usage of all of it. */
  tree(sessionId: string): Outcome<{ tree: AgentTree }, 'not_found'> {
    const { stores } = this.deps;
    if (stores.sessions.get(sessionId) === null) return fail('not_found', 'That session does not exist.');
    const rootSessionId = this.childLink(sessionId)?.rootSessionId ?? sessionId;
    const descendants = stores.agents.descendantsOf(rootSessionId);
    const usage = { inputTokens: 0, outputTokens: 0, costUsd: null as number | null };
    for (const member of [rootSessionId, ...descendants.map((child) => child.childSessionId)]) {
      const totals = stores.usage.summary({ by: 'session', sessionId: member }).totals;
      usage.inputTokens += totals.inputTokens;
      usage.outputTokens += totals.outputTokens;
      if (totals.costUsd !== null) usage.costUsd = (usage.costUsd ?? 0) + totals.costUsd;
    }
    return ok({
      tree: {
        treeId: agentTreeId(rootSessionId),
        rootSessionId,
        failedReason: stores.agents.treeFailure(rootSessionId),
        children: descendants.map((child) => this.node(child)),
        usage,
      },
    });
  }

  /**
   * Stops a whole tree: its root's turn and every live descendant. Refused, with nothing changed,
   * when the session is not a root or the tree id does not match.
   */
  stopTree(
    rootSessionId: string,
    expectedTreeId: string | undefined,
    source: string,
  ): Outcome<{ treeId: string; stoppedChildren: number }, 'not_found' | 'operation_conflict'> {
    const { stores } = this.deps;
    if (stores.sessions.get(rootSessionId) === null) return fail('not_found', 'That session does not exist.');
    const link = this.childLink(rootSessionId);
    if (link !== null) {
      return fail(
        'operation_conflict',
        'That session is a child agent, not the root of its tree. Stop its root session instead (or stop the child alone with Stop).',
      );
    }
    const treeId = agentTreeId(rootSessionId);
    if (expectedTreeId !== undefined && expectedTreeId !== treeId) {
      return fail('operation_conflict', 'That agent tree is not the one this session roots; nothing was stopped.');
    }
    const live = this.liveDescendants(rootSessionId).length;
    const stopped = this.deps.turns().stop(rootSessionId, undefined, source);
    if (!stopped.ok) return stopped;
    // Children a finished root left running are stopped too (the root's own Stop cascades the rest).
    this.cascade(rootSessionId, PARENT_STOPPED);
    return ok({ treeId, stoppedChildren: live });
  }

  /** How many descendants of a root are working now (what its Stop will stop). */
  liveDescendants(rootSessionId: string): StoredAgentChild[] {
    return this.deps.stores.agents
      .descendantsOf(rootSessionId)
      .filter((child) => this.deps.stores.turns.activeTurn(child.childSessionId) !== null);
  }

  /**
   * The host could not apply something it had to (an answer to a child's question): the tree is
   * marked failed with the reason and its live descendants are stopped, exactly once.
   */
  failStop(sessionId: string, reason: string): boolean {
    const rootSessionId = this.childLink(sessionId)?.rootSessionId ?? sessionId;
    if (!this.deps.stores.agents.markTreeFailed(rootSessionId, reason, this.deps.clock.now())) return false;
    this.deps.logger.error('An agent tree entered fail-stop; its children are stopped', { rootSessionId, reason });
    for (const child of this.liveDescendants(rootSessionId))
      this.deps.turns().stop(child.childSessionId, undefined, TREE_FAILED);
    this.deps.bus.publish({ kind: 'agent.changed', rootSessionId, child: null });
    return true;
  }

  private createChild(
    context: ToolContext,
    spec: {
      spawnId: string;
      depth: number;
      rootSessionId: string;
      definition: AgentDefinition;
      task: string;
      parentMode: PermissionMode;
    },
  ): StoredAgentChild {
    const { stores, clock, ids, bus } = this.deps;
    const { definition } = spec;
    const parent = stores.sessions.get(context.sessionId);
    if (parent === null) throw new Error('Parent session vanished');
    const wanted: PermissionMode = definition.readOnly ? 'explore' : spec.parentMode;
    const permissionMode = narrower(wanted, spec.parentMode);
    const childSessionId = ids.next('session');
    const { session, child } = stores.transaction(() => {
      const now = clock.now();
      const created = stores.sessions.insert({
        sessionId: childSessionId,
        title: childSessionTitle(
          definition.name,
          spec.task,
          stores.agents
            .childrenOf(context.sessionId)
            .map((sibling) => stores.sessions.get(sibling.childSessionId)?.title ?? ''),
        ),
        titleSource: 'user',
        workspacePath: parent.workspacePath,
        connectionId: parent.connectionId,
        model: definition.model ?? parent.model,
        permissionMode,
        now,
      });
      const record = stores.agents.insert({
        childSessionId,
        spawnId: spec.spawnId,
        rootSessionId: spec.rootSessionId,
        parentSessionId: context.sessionId,
        parentTurnId: context.turnId,
        parentRunId: context.runId,
        parentToolCallId: context.toolCallId ?? '',
        depth: spec.depth,
        agentId: definition.id,
        agentName: definition.name,
        systemPrompt: definition.systemPrompt,
        toolNames: definition.tools,
        task: spec.task,
        initialTurnId: `task-${childSessionId}`,
        createdAt: now,
      });
      return { session: created, child: record };
    });
    bus.publish({ kind: 'session.changed', session });
    bus.publish({ kind: 'agent.changed', rootSessionId: child.rootSessionId, child: this.node(child) });
    return child;
  }

  /** Gives the child its worktree before its task starts, when the spawn asked; a refusal in words when it cannot have one. */
  private async isolate(child: StoredAgentChild, request: SpawnRequest): Promise<ToolAnswer | null> {
    if (request.worktree !== true) return null;
    const given = await this.deps.giveWorktree(child.childSessionId);
    return given.ok
      ? null
      : refusal(`The child could not get a worktree of its own, so it was not started: ${given.error.message}`);
  }

  /** Starts (or, replayed, finds) the child's task turn; a refusal in words when it cannot start. */
  private startTask(child: StoredAgentChild): ToolAnswer | null {
    if (this.deps.stores.turns.getTurn(child.childSessionId, child.initialTurnId) !== null) return null;
    const started = this.deps
      .turns()
      .start({ sessionId: child.childSessionId, turnId: child.initialTurnId, text: child.task, origin: 'subagent' });
    return started.ok ? null : refusal(started.error.message);
  }

  private async spawned(
    child: StoredAgentChild,
    wait: boolean,
    signal: AbortSignal,
    replayed: boolean,
  ): Promise<ToolAnswer> {
    const base = {
      childSessionId: child.childSessionId,
      agent: child.agentId,
      ...(replayed ? { replayed: true } : {}),
    };
    if (!wait)
      return {
        output: { ...base, status: this.deps.stores.turns.latestTurn(child.childSessionId)?.status ?? 'running' },
        isError: false,
      };
    const [outcome] = await waitForChildren(this.deps, [child.childSessionId], null, signal);
    return { output: { ...base, ...outcome }, isError: false };
  }

  private node(child: StoredAgentChild): AgentTreeNode {
    const { systemPrompt: _prompt, toolNames: _tools, ...record } = child;
    const session = this.deps.stores.sessions.get(child.childSessionId);
    const latest = this.deps.stores.turns.latestTurn(child.childSessionId);
    return {
      ...record,
      activity: session?.activity ?? 'idle',
      status: latest?.status ?? null,
      terminalReason: latest?.latestRun.terminalReason ?? null,
    };
  }

  /** Stops every live child of a session (their own stops cascade further down). */
  private cascade(sessionId: string, source: string): void {
    for (const child of this.deps.stores.agents.childrenOf(sessionId)) {
      if (this.deps.stores.turns.activeTurn(child.childSessionId) !== null)
        this.deps.turns().stop(child.childSessionId, undefined, source);
      this.cascade(child.childSessionId, source);
    }
  }

  /**
   * A cancelled turn stops its session's live children; a child's turn change is announced as an
   * agent change. Both after the event's delivery, so every subscriber sees events in `seq` order.
   */
  private onEvent(event: ChangeEvent): void {
    if (event.kind !== 'turn.changed') return;
    const { sessionId, status } = event.turn;
    const link = this.childLink(sessionId);
    const hasChildren = this.deps.stores.agents.childrenOf(sessionId).length > 0;
    if (link === null && !(status === 'cancelled' && hasChildren)) return;
    queueMicrotask(() => {
      if (status === 'cancelled' && hasChildren) this.cascade(sessionId, PARENT_STOPPED);
      // A child removed meanwhile is not announced again (its removal was).
      if (link !== null && this.deps.stores.sessions.get(sessionId) !== null) {
        this.deps.bus.publish({ kind: 'agent.changed', rootSessionId: link.rootSessionId, child: this.node(link) });
      }
    });
  }
}

function refusal(message: string): ToolAnswer {
  return { output: { error: message }, isError: true };
}
