import type { ConnectionRecord } from '../../../src-shared/connection-model';
import type { ConnectionDraft, ConnectionField, ConnectionProblems } from '../../forms/connection-form';

/** What each provider kind's fields get from the connection form's shell. */
export interface ConnectionFieldsProps {
  /** The form's id: each control's id derives from it. */
  readonly formId: string;
  readonly draft: ConnectionDraft;
  /** The problems to show now (a field's once it was left, all once Submit was tried). */
  readonly shown: ConnectionProblems;
  /** The connection being edited; null while adding one. */
  readonly connection: ConnectionRecord | null;
  /** Whether a save or a key removal is under way. */
  readonly busy: boolean;
  change(patch: Partial<ConnectionDraft>): void;
  touch(field: ConnectionField): void;
  /** Replaces the draft with what `update` makes of it (a choice that resets other fields). */
  reshape(update: (draft: ConnectionDraft) => ConnectionDraft): void;
  removeKey(): void;
}
