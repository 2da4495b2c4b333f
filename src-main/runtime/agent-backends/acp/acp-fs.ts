import {
  RequestError,
  type RequestPermissionRequest,
  type ReadTextFileRequest,
  type ReadTextFileResponse,
  type WriteTextFileRequest,
} from '@agentclientprotocol/sdk';
import type { PermissionMode } from '../../../../src-shared/model';
import { isRunLaterFile, mayWriteRunLater, runLaterRefusal } from '../../sandbox/run-later-files';
import { readConfined, writeConfined } from '../../workspace/workspace-files';
import { resolveInWorkspace } from '../../workspace/workspace-paths';

const MAX_READ_BYTES = 10 * 1024 * 1024;

/** What an agent's file request needs to know about its Cairn session now. */
export interface AcpFsSession {
  readonly workspace: string;
  readonly permissionMode: PermissionMode;
  /** Whether the person allowed a tool call of the agent's current turn (an approval card), or Full mode. */
  readonly writeApproved: boolean;
  /**
   * The files the person approved this turn on the agent's own cards (the diff's path and the tool
   * call's locations): in Ask, a file that makes code run later is written only when it is one of them.
   */
  readonly approvedPaths?: readonly string[];
}

/** The files an approval card of the agent's showed: its diffs' paths and its locations. */
export function pathsOfPermission(params: RequestPermissionRequest): string[] {
  const diffs = (params.toolCall.content ?? []).flatMap((item) => (item.type === 'diff' ? [item.path] : []));
  return [...diffs, ...(params.toolCall.locations ?? []).map((location) => location.path)];
}

/** Whether the person approved a card showing `target` (compared as resolved workspace paths). */
async function approvedOnCard(session: AcpFsSession, absolute: string): Promise<boolean> {
  for (const shown of session.approvedPaths ?? []) {
    const resolved = await resolveInWorkspace(session.workspace, shown);
    if (resolved.ok && resolved.absolute === absolute) return true;
  }
  return false;
}

/**
 * The agent's `fs/read_text_file` and `fs/write_text_file`, through Cairn's confined workspace files:
 * only paths inside the session's workspace (links resolved), never outside. Reads are allowed in
 * every mode; a missing file is ACP's "Resource not found". Writes: Explore refuses them; Ask allows them once the person approved one of the
 * agent's tool calls in this turn (the agent asks with `session/request_permission` before it edits);
 * Full allows them. A file that makes code run later (`run-later-files.ts`: git hooks and config,
 * .cairn, Claude's settings) is refused in Auto, and in Ask unless the person approved a card showing
 * that very file; Full writes it.
 */
export async function readTextFile(session: AcpFsSession, params: ReadTextFileRequest): Promise<ReadTextFileResponse> {
  const target = await resolveInWorkspace(session.workspace, params.path);
  if (!target.ok) throw RequestError.invalidParams(undefined, target.message);
  // ACP's own "Resource not found" (-32002): agents take it as a file to create (Gemini CLI's write_file reads first).
  if (!target.exists) throw RequestError.resourceNotFound(params.path);
  const read = await readConfined(target, MAX_READ_BYTES);
  if (!read.ok) throw RequestError.invalidParams(undefined, read.message);
  const text = read.bytes.toString('utf8');
  if (params.line == null && params.limit == null) return { content: text };
  const lines = text.split('\n');
  const start = Math.max(0, (params.line ?? 1) - 1);
  return { content: lines.slice(start, params.limit == null ? undefined : start + params.limit).join('\n') };
}

export async function writeTextFile(
  session: AcpFsSession,
  params: WriteTextFileRequest,
): Promise<Record<string, never>> {
  if (session.permissionMode === 'explore')
    throw RequestError.invalidParams(
      undefined,
      'This Cairn session is in Explore mode: the agent may read files but not write them.',
    );
  if (session.permissionMode === 'ask' && !session.writeApproved) {
    throw RequestError.invalidParams(
      undefined,
      'This Cairn session asks before changes: request permission for the edit (session/request_permission) first.',
    );
  }
  const target = await resolveInWorkspace(session.workspace, params.path, { forWrite: true });
  if (!target.ok) throw RequestError.invalidParams(undefined, target.message);
  if (
    (await isRunLaterFile(target.root, target.absolute)) &&
    !mayWriteRunLater(session.permissionMode, await approvedOnCard(session, target.absolute))
  )
    throw RequestError.invalidParams(undefined, runLaterRefusal(target.relative, session.permissionMode));
  const written = await writeConfined(target, params.content);
  if (!written.ok) throw RequestError.invalidParams(undefined, written.message);
  return {};
}
