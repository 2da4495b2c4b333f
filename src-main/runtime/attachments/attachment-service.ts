import {
  attachmentRefusal,
  classifyAttachment,
  refOf,
  type AttachmentRecord,
  type AttachmentRef,
  type AttachmentTarget,
} from '../../../src-shared/attachment-model';
import { OFFLINE_DEMO_CONNECTION_ID } from '../../../src-shared/connection-model';
import { fail, ok, type Outcome } from '../../../src-shared/errors';
import type { SessionRecord } from '../../../src-shared/model';
import type { Stores } from '../../storage/stores';
import type { ModelAttachment } from '../connections/providers';
import type { Clock } from '../ports/ports';

export interface AttachmentServiceDeps {
  readonly stores: Stores;
  readonly clock: Clock;
  /** The session's provider and model, or why it has none. */
  resolveTarget(
    connectionId: string,
    model: string | null,
  ): { readonly providerType: AttachmentTarget['providerType']; readonly modelId: string } | { error: string };
  isCodex(connectionId: string): boolean;
}

export interface AddAttachmentRequest {
  readonly sessionId: string;
  readonly attachmentId: string;
  readonly name: string;
  readonly dataBase64: string;
}

/**
 * Files attached to messages: checked at the door (size, type, whether the session's model can take
 * them), stored in the data directory, and read back for the model and the transcript.
 */
export class AttachmentService {
  constructor(private readonly deps: AttachmentServiceDeps) {}

  add(
    request: AddAttachmentRequest,
  ): Outcome<
    { attachment: AttachmentRecord },
    'invalid_input' | 'not_found' | 'operation_conflict' | 'session_archived'
  > {
    const { stores, clock } = this.deps;
    const session = stores.sessions.get(request.sessionId);
    if (session === null) return fail('not_found', 'That session does not exist. It may have been deleted.');
    const bytes = Buffer.from(request.dataBase64, 'base64');
    const existing = stores.attachments.get(request.attachmentId);
    if (existing !== null) {
      const same =
        existing.sessionId === request.sessionId &&
        existing.name === request.name &&
        existing.sizeBytes === bytes.length;
      return same
        ? ok({ attachment: existing })
        : fail('operation_conflict', 'A different file was already attached with this id.');
    }
    if (session.archived)
      return fail('session_archived', 'This session is archived. Unarchive it to attach files to it.');
    if (bytes.length === 0) return fail('invalid_input', `“${request.name}” is empty, so there is nothing to attach.`);
    const classified = classifyAttachment(request.name, bytes);
    if ('refusal' in classified) return fail('invalid_input', classified.refusal);
    const refusal = this.refusalFor(session, classified.kind);
    if (refusal !== null) return fail('invalid_input', `“${request.name}” cannot be attached: ${refusal}`);
    const attachment = stores.attachments.insert({ ...request, ...classified, bytes, now: clock.now() });
    return ok({ attachment });
  }

  /**
   * The attachments a new message carries, checked again against the session's model as it is now
   * (the person may have switched models since attaching).
   */
  forMessage(
    sessionId: string,
    attachmentIds: readonly string[],
  ): Outcome<AttachmentRef[], 'invalid_input' | 'not_found'> {
    const session = this.deps.stores.sessions.get(sessionId);
    if (session === null) return fail('not_found', 'That session does not exist. It may have been deleted.');
    const refs: AttachmentRef[] = [];
    for (const attachmentId of new Set(attachmentIds)) {
      const record = this.deps.stores.attachments.get(attachmentId);
      if (record === null || record.sessionId !== sessionId)
        return fail('not_found', 'An attached file is no longer stored. Remove it and attach it again.');
      const refusal = this.refusalFor(session, record.kind);
      if (refusal !== null) return fail('invalid_input', `“${record.name}” cannot be sent: ${refusal}`);
      refs.push(refOf(record));
    }
    return ok(refs);
  }

  read(attachmentId: string): Outcome<{ attachment: AttachmentRecord; dataBase64: string }, 'not_found'> {
    const attachment = this.deps.stores.attachments.get(attachmentId);
    const bytes = attachment === null ? null : this.deps.stores.attachments.bytes(attachment);
    if (attachment === null || bytes === null) return fail('not_found', 'That attachment is no longer stored.');
    return ok({ attachment, dataBase64: bytes.toString('base64') });
  }

  /** An attachment's content as the model receives it. */
  load(ref: AttachmentRef): ModelAttachment {
    const record = this.deps.stores.attachments.get(ref.attachmentId);
    const bytes = record === null ? null : this.deps.stores.attachments.bytes(record);
    if (record === null || bytes === null) return { kind: 'missing', name: ref.name };
    if (record.kind === 'image')
      return { kind: 'image', name: record.name, mediaType: record.mediaType, data: new Uint8Array(bytes) };
    return { kind: 'text', name: record.name, text: bytes.toString('utf8') };
  }

  private refusalFor(session: SessionRecord, kind: AttachmentRecord['kind']): string | null {
    const target = this.targetOf(session);
    if ('error' in target) return kind === 'image' ? target.error : null;
    return attachmentRefusal(kind, target);
  }

  private targetOf(session: SessionRecord): AttachmentTarget | { error: string } {
    if (session.connectionId === OFFLINE_DEMO_CONNECTION_ID) return { providerType: 'scripted', modelId: 'scripted' };
    if (this.deps.isCodex(session.connectionId)) return { providerType: 'codex', modelId: session.model ?? '' };
    // A connection that cannot run (gone, turned off, no model) cannot look at images either: its reason says why.
    return this.deps.resolveTarget(session.connectionId, session.model);
  }
}
