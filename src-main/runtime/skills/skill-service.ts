import { fail, ok, type Outcome } from '../../../src-shared/errors';
import type { PermissionMode, SessionRecord } from '../../../src-shared/model';
import type {
  SkillListResult,
  SkillSummary,
  SkillUnavailability,
  UnavailableSkill,
} from '../../../src-shared/skill-model';
import type { ToolSurface, ToolSurfaceContext } from '../tools/tool-surface';
import { readSkill, readSkillCatalog, type CatalogEntry, type CatalogSkill } from './skill-catalog';

/** Whose skills: an existing session, or a new session not created yet (the composer of a new session). */
export type SkillTarget =
  | { readonly kind: 'session'; readonly sessionId: string }
  | {
      readonly kind: 'new_session';
      readonly workspacePath: string | null;
      readonly permissionMode: PermissionMode;
      readonly connectionId?: string | undefined;
    };

export interface SkillServiceDeps {
  session(sessionId: string): SessionRecord | null;
  connectionExists(connectionId: string): boolean;
  /** The connection a new session gets when none is chosen. */
  defaultConnectionId(): string;
  /** The person's own skills folder (`<data dir>/skills`). */
  readonly personalDir: string;
  /** The tool surface of a context, resolved now (it may wait, e.g. on an MCP server's tool list). */
  toolSurface(context: ToolSurfaceContext): ToolSurface | Promise<ToolSurface>;
}

/** A skill loaded for the agent: what `load_skill` returns to the model. */
export interface LoadedSkill {
  readonly id: string;
  readonly name: string;
  readonly source: CatalogSkill['source'];
  readonly instructions: string;
}

/**
 * Skills for a session or a new-session preview: which the agent can load (their required tools are
 * in the target's tool surface) and why the others cannot be; loading one reads its file afresh.
 */
export class SkillService {
  constructor(private readonly deps: SkillServiceDeps) {}

  async list(target: SkillTarget): Promise<Outcome<SkillListResult, 'not_found' | 'session_archived'>> {
    const context = this.contextOf(target);
    if (!context.ok) return context;
    const [surface, catalog] = await Promise.all([
      this.deps.toolSurface(context.result),
      readSkillCatalog(this.foldersOf(context.result)),
    ]);
    // The session may have been archived or removed while its tools were resolved: answer for now.
    if (target.kind === 'session') {
      const settled = this.sessionState(target.sessionId);
      if (!settled.ok) return settled;
    }
    const invocable: SkillSummary[] = [];
    const unavailable: UnavailableSkill[] = [];
    for (const entry of catalog) {
      const why = unavailability(entry, surface);
      if (why === null && entry.kind === 'skill') invocable.push(summaryOf(entry));
      else if (why !== null)
        unavailable.push({
          id: entry.id,
          source: entry.source,
          name: entry.kind === 'skill' ? entry.name : null,
          description: entry.kind === 'skill' ? entry.description : null,
          why,
        });
    }
    return ok({ invocable, unavailable });
  }

  /**
   * Loads a skill for a session's agent, reading its file now: a changed file gives its new text; a
   * removed, broken or (in this session) unusable skill gives a message saying so.
   */
  async load(
    sessionId: string,
    skillId: string,
  ): Promise<Outcome<LoadedSkill, 'not_found' | 'operation_unavailable' | 'session_archived'>> {
    const context = this.contextOf({ kind: 'session', sessionId });
    if (!context.ok) return context;
    const [surface, entry] = await Promise.all([
      this.deps.toolSurface(context.result),
      readSkill(this.foldersOf(context.result), skillId),
    ]);
    if (entry === null) {
      return fail(
        'not_found',
        `There is no skill "${skillId}" (it may have been removed): look in the workspace's .agents/skills/ folder and in Cairn's skills folder.`,
      );
    }
    const why = unavailability(entry, surface);
    if (why !== null || entry.kind !== 'skill')
      return fail(
        'operation_unavailable',
        `The skill "${skillId}" cannot be loaded here: ${why?.message ?? ''}`.trim(),
      );
    return ok({ id: entry.id, name: entry.name, source: entry.source, instructions: entry.instructions });
  }

  /** The invocable skills of a session, as its agent's instructions list them; null when there are none. */
  async promptFor(sessionId: string): Promise<string | null> {
    const listed = await this.list({ kind: 'session', sessionId });
    if (!listed.ok || listed.result.invocable.length === 0) return null;
    const lines = listed.result.invocable.map((skill) => `- ${skill.id}: ${skill.name} — ${skill.description}`);
    return [
      'Skills: the person keeps reusable instructions as skills. When one fits the request, call load_skill with its id to read its full text, then follow it.',
      ...lines,
    ].join('\n');
  }

  private contextOf(target: SkillTarget): Outcome<ToolSurfaceContext, 'not_found' | 'session_archived'> {
    if (target.kind === 'session') {
      const state = this.sessionState(target.sessionId);
      if (!state.ok) return state;
      const session = state.result;
      return ok({
        sessionId: session.sessionId,
        workspacePath: session.workspacePath,
        permissionMode: session.permissionMode,
        connectionId: session.connectionId,
      });
    }
    const connectionId = target.connectionId ?? this.deps.defaultConnectionId();
    if (!this.deps.connectionExists(connectionId))
      return fail('not_found', 'That connection does not exist. It may have been removed.');
    return ok({
      sessionId: null,
      workspacePath: target.workspacePath,
      permissionMode: target.permissionMode,
      connectionId,
    });
  }

  private sessionState(sessionId: string): Outcome<SessionRecord, 'not_found' | 'session_archived'> {
    const session = this.deps.session(sessionId);
    if (session === null) return fail('not_found', 'That session does not exist. It may have been deleted.');
    if (session.archived) return fail('session_archived', 'This session is archived. Unarchive it to use its skills.');
    return ok(session);
  }

  private foldersOf(context: ToolSurfaceContext) {
    return { workspacePath: context.workspacePath, personalDir: this.deps.personalDir };
  }
}

function summaryOf(skill: CatalogSkill): SkillSummary {
  return {
    id: skill.id,
    name: skill.name,
    description: skill.description,
    source: skill.source,
    requiredTools: skill.requiredTools,
  };
}

/** Why an entry cannot be loaded with this tool surface, or null when it can. */
function unavailability(entry: CatalogEntry, surface: ToolSurface): SkillUnavailability | null {
  if (entry.kind === 'broken') return { reason: 'broken', message: entry.reason };
  if (surface.kind === 'native') return { reason: 'connection', message: surface.message };
  const offered = new Set(surface.names);
  const missingTools = entry.requiredTools.filter((tool) => !offered.has(tool));
  if (missingTools.length === 0) return null;
  const list = missingTools.join(', ');
  return {
    reason: 'missing_tools',
    missingTools,
    message: `It needs ${missingTools.length === 1 ? 'the tool' : 'the tools'} ${list}, which ${missingTools.length === 1 ? 'is' : 'are'} not available here (a tool that changes things is off in Explore mode; workspace tools need a workspace folder; a child agent has only the tools its definition lists).`,
  };
}
