import type { MessageSearchHit, ModelSettings } from '../../src-shared/chat-model';
import type { ExportFormat, SessionPreferences } from '../../src-shared/operations/chat-operations';
import { copyText } from '../platform/clipboard';
import { downloadFile } from '../platform/download';
import type { SliceCreator } from './app-state';

const HIT_LIMIT = 30;

export interface MessageSearchState {
  /** The query the hits answer ('' when nothing is searched). */
  readonly query: string;
  readonly hits: readonly MessageSearchHit[];
  readonly includeArchived: boolean;
}

/** A search hit being shown: the session scrolls to it and marks it. */
export interface FocusedHit {
  readonly sessionId: string;
  readonly itemId: string;
  /** Its transcript position when known (a search hit's): a session not yet loaded opens at the page around it. */
  readonly position: number | null;
}

export type ChatDialog =
  | { readonly kind: 'instructions'; readonly sessionId: string }
  | { readonly kind: 'model_settings'; readonly sessionId: string };

/** Finding what was said, a session's instructions and model settings, copy and export (issue 19). */
export interface ChatSlice {
  readonly messageSearch: MessageSearchState;
  readonly focusedHit: FocusedHit | null;
  readonly preferences: Readonly<Record<string, SessionPreferences>>;
  readonly globalInstructions: string | null;
  readonly chatDialog: ChatDialog | null;
  /** Each loaded connection's default model settings. */
  readonly connectionModelSettings: Readonly<Record<string, ModelSettings>>;
  loadConnectionModelSettings(connectionId: string): Promise<void>;
  saveConnectionModelSettings(connectionId: string, modelSettings: ModelSettings): Promise<boolean>;
  /** Searches message bodies for what the search box holds. */
  searchMessages(): Promise<void>;
  setSearchIncludesArchived(includeArchived: boolean): void;
  /**
   * Opens the hit's session at the page around the hit (one request) and scrolls to it; in a session
   * already open, its transcript reads older pages — or a window around a far hit — first.
   */
  openHit(hit: MessageSearchHit): void;
  clearFocusedHit(): void;
  loadPreferences(sessionId: string): Promise<void>;
  savePreferences(
    sessionId: string,
    change: { instructions?: string; modelSettings?: ModelSettings },
  ): Promise<boolean>;
  loadGlobalInstructions(): Promise<void>;
  saveGlobalInstructions(instructions: string): Promise<boolean>;
  setChatDialog(dialog: ChatDialog | null): void;
  /** Saves the session as a file: the OS save dialog on the desktop, a download in the browser. */
  exportSession(sessionId: string, format: ExportFormat): Promise<void>;
  /** Copies the whole conversation as Markdown; resolves whether it worked. */
  copyConversation(sessionId: string): Promise<boolean>;
}

export const createChatSlice: SliceCreator<ChatSlice> = (set, get, deps) => {
  const { link } = deps;
  let searchRequest = 0;
  return {
    messageSearch: { query: '', hits: [], includeArchived: false },
    focusedHit: null,
    preferences: {},
    globalInstructions: null,
    chatDialog: null,
    connectionModelSettings: {},

    async loadConnectionModelSettings(connectionId) {
      const outcome = await link.invoke('connection.modelSettings', { connectionId });
      if (outcome.ok)
        set((state) => ({
          connectionModelSettings: { ...state.connectionModelSettings, [connectionId]: outcome.result.modelSettings },
        }));
    },

    async saveConnectionModelSettings(connectionId, modelSettings) {
      const outcome = await link.invoke('connection.setModelSettings', { connectionId, modelSettings });
      if (!outcome.ok) {
        get().reportFailure(outcome.error);
        return false;
      }
      set((state) => ({
        connectionModelSettings: { ...state.connectionModelSettings, [connectionId]: outcome.result.modelSettings },
      }));
      return true;
    },

    async searchMessages() {
      const query = get().searchText.trim();
      const { includeArchived } = get().messageSearch;
      const request = ++searchRequest;
      if (query === '') {
        set({ messageSearch: { query: '', hits: [], includeArchived } });
        return;
      }
      const outcome = await link.invoke('search.messages', { query, includeArchived, limit: HIT_LIMIT });
      if (request !== searchRequest) return;
      if (!outcome.ok) {
        get().reportFailure(outcome.error);
        return;
      }
      set({ messageSearch: { query, hits: outcome.result.hits, includeArchived } });
    },

    setSearchIncludesArchived(includeArchived) {
      set((state) => ({ messageSearch: { ...state.messageSearch, includeArchived } }));
      void get().searchMessages();
    },

    openHit(hit) {
      set({ focusedHit: { sessionId: hit.sessionId, itemId: hit.itemId, position: hit.position } });
      get().selectSession(hit.sessionId);
    },

    clearFocusedHit() {
      if (get().focusedHit !== null) set({ focusedHit: null });
    },

    async loadPreferences(sessionId) {
      const outcome = await link.invoke('session.preferences', { sessionId });
      if (outcome.ok) set((state) => ({ preferences: { ...state.preferences, [sessionId]: outcome.result } }));
    },

    async savePreferences(sessionId, change) {
      const outcome = await link.invoke('session.setPreferences', { sessionId, ...change });
      if (!outcome.ok) {
        get().reportFailure(outcome.error);
        return false;
      }
      set((state) => ({ preferences: { ...state.preferences, [sessionId]: outcome.result } }));
      return true;
    },

    async loadGlobalInstructions() {
      const outcome = await link.invoke('settings.instructions', {});
      if (outcome.ok) set({ globalInstructions: outcome.result.instructions });
    },

    async saveGlobalInstructions(instructions) {
      const outcome = await link.invoke('settings.setInstructions', { instructions });
      if (!outcome.ok) {
        get().reportFailure(outcome.error);
        return false;
      }
      set((state) => ({
        globalInstructions: outcome.result.instructions,
        // Every loaded session shows the new global instructions.
        preferences: Object.fromEntries(
          Object.entries(state.preferences).map(([id, prefs]) => [
            id,
            { ...prefs, globalInstructions: outcome.result.instructions },
          ]),
        ),
      }));
      return true;
    },

    setChatDialog(chatDialog) {
      set({ chatDialog });
    },

    async exportSession(sessionId, format) {
      const saved = await link.invoke('session.saveExport', { sessionId, format });
      if (saved.ok) return;
      if (saved.error.code !== 'operation_unavailable') {
        get().reportFailure(saved.error);
        return;
      }
      const made = await link.invoke('session.export', { sessionId, format });
      if (!made.ok) {
        get().reportFailure(made.error);
        return;
      }
      downloadFile(made.result.fileName, made.result.mimeType, made.result.content);
    },

    async copyConversation(sessionId) {
      const made = await link.invoke('session.export', { sessionId, format: 'markdown' });
      if (!made.ok) {
        get().reportFailure(made.error);
        return false;
      }
      return copyText(made.result.content);
    },
  };
};
