import type { BranchRequestMode, SessionBranches } from '../../src-shared/branch-model';
import type { ChangeEvent } from '../../src-shared/events';
import type { SliceCreator } from './app-state';

/** The message being edited in place (Edit on one of the person's messages). */
export interface EditingMessage {
  readonly sessionId: string;
  readonly itemId: string;
}

/** Branches: where a session came from, the branches made from its messages, and making one. */
export interface BranchesSlice {
  readonly branchLinks: Readonly<Record<string, SessionBranches>>;
  readonly editingMessage: EditingMessage | null;
  /** An Edit or Regenerate on its way (its item id), so the button can say so. */
  readonly branchingItemId: string | null;
  loadBranches(sessionId: string): Promise<void>;
  setEditingMessage(editing: EditingMessage | null): void;
  /** Makes a branch at a message and opens it; the edited text for `edit`. */
  branchAt(sessionId: string, itemId: string, mode: BranchRequestMode, text?: string): Promise<void>;
  /** Re-reads the links of the sessions these events name (a branch was made or finished). */
  noteBranchEvents(batch: readonly ChangeEvent[]): void;
}

export const createBranchesSlice: SliceCreator<BranchesSlice> = (set, get, deps) => ({
  branchLinks: {},
  editingMessage: null,
  branchingItemId: null,

  async loadBranches(sessionId) {
    const outcome = await deps.link.invoke('session.branches', { sessionId });
    if (outcome.ok) set((state) => ({ branchLinks: { ...state.branchLinks, [sessionId]: outcome.result } }));
  },

  setEditingMessage(editing) {
    set({ editingMessage: editing });
  },

  async branchAt(sessionId, itemId, mode, text) {
    if (get().branchingItemId !== null) return;
    set({ branchingItemId: itemId });
    try {
      const outcome = await deps.link.invoke('session.branch', {
        sessionId,
        atItemId: itemId,
        mode,
        ...(text === undefined ? {} : { text }),
        requestId: deps.newId(),
      });
      if (!outcome.ok) {
        get().showError(outcome.error.message);
        return;
      }
      set({ editingMessage: null });
      void get().loadBranches(sessionId);
      get().selectSession(outcome.result.session.sessionId);
    } finally {
      set({ branchingItemId: null });
    }
  },

  noteBranchEvents(batch) {
    const loaded = get().branchLinks;
    for (const event of batch) {
      if (event.kind !== 'session.branched') continue;
      for (const sessionId of [event.sessionId, event.sourceSessionId])
        if (loaded[sessionId] !== undefined || get().selectedSessionId === sessionId) void get().loadBranches(sessionId);
    }
  },
});
