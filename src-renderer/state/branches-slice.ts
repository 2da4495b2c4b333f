import type { BranchRequestMode, SessionBranches } from '../../src-shared/branch-model';
import type { ChangeEvent } from '../../src-shared/events';
import type { SliceCreator } from './app-state';
import type { VersionTarget } from './version-switch';

/** The message being edited in place (Edit on one of the person's messages). */
export interface EditingMessage {
  readonly sessionId: string;
  readonly itemId: string;
}

/** The version switch to focus once the version it opened is on screen (the arrow pressed). */
export interface VersionFocus extends VersionTarget {
  readonly direction: 'previous' | 'next';
}

/** Branches: where a session came from, the branches made from its messages, and making one. */
export interface BranchesSlice {
  readonly branchLinks: Readonly<Record<string, SessionBranches>>;
  readonly editingMessage: EditingMessage | null;
  /** An Edit or Regenerate on its way (its item id), so the button can say so. */
  readonly branchingItemId: string | null;
  readonly versionFocus: VersionFocus | null;
  /** The sidebar's branch groups the person closed (open by default). */
  readonly closedBranchGroups: Readonly<Record<string, true>>;
  setBranchGroupOpen(sessionId: string, open: boolean): void;
  loadBranches(sessionId: string): Promise<void>;
  setEditingMessage(editing: EditingMessage | null): void;
  /** Makes a branch at a message and opens it; the edited text for `edit`. */
  branchAt(sessionId: string, itemId: string, mode: BranchRequestMode, text?: string): Promise<void>;
  /** ‹ or › of a version switch: opens that version's session, scrolled to its message, with the switch focused. */
  openVersion(target: VersionTarget, direction: 'previous' | 'next'): void;
  clearVersionFocus(): void;
  /** Re-reads the links of the sessions these events name (a branch was made or finished). */
  noteBranchEvents(batch: readonly ChangeEvent[]): void;
}

const inFamily = (links: SessionBranches | undefined) =>
  links !== undefined && (links.branchedFrom !== null || links.branches.length > 0);

export const createBranchesSlice: SliceCreator<BranchesSlice> = (set, get, deps) => ({
  branchLinks: {},
  editingMessage: null,
  branchingItemId: null,
  versionFocus: null,
  closedBranchGroups: {},

  setBranchGroupOpen(sessionId, open) {
    const { [sessionId]: _was, ...rest } = get().closedBranchGroups;
    set({ closedBranchGroups: open ? rest : { ...rest, [sessionId]: true } });
  },

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

  openVersion(target, direction) {
    set({
      versionFocus: { ...target, direction },
      focusedHit:
        target.itemId === null ? null : { sessionId: target.sessionId, itemId: target.itemId, position: null },
    });
    get().selectSession(target.sessionId);
  },

  clearVersionFocus() {
    if (get().versionFocus !== null) set({ versionFocus: null });
  },

  noteBranchEvents(batch) {
    const loaded = get().branchLinks;
    const reload = new Set<string>();
    for (const event of batch) {
      if (event.kind === 'session.branched') {
        for (const sessionId of [event.sessionId, event.sourceSessionId])
          if (loaded[sessionId] !== undefined || get().selectedSessionId === sessionId) reload.add(sessionId);
      }
      // A turn that starts or ends in a branch family changes its versions (a new one, or its answer to open).
      if (event.kind === 'turn.changed' && inFamily(loaded[event.turn.sessionId])) reload.add(event.turn.sessionId);
    }
    for (const sessionId of reload) void get().loadBranches(sessionId);
  },
});
