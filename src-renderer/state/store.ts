import { createStore } from 'zustand/vanilla';
import type { AppState, AppStore, StoreDeps } from './app-state';
import { createAcpInstallsSlice } from './acp-installs-slice';
import { createAcpSlice } from './acp-slice';
import { createAgentsSlice } from './agents-slice';
import { createAttachmentImagesSlice } from './attachment-images-slice';
import { createAutomationsSlice } from './automations-slice';
import { createBranchesSlice } from './branches-slice';
import { createCatalogSlice } from './catalog-slice';
import { createChangesSlice } from './changes-slice';
import { createWorktreeSlice } from './worktree-slice';
import { createChatSlice } from './chat-slice';
import { createComposerSlice } from './composer-slice';
import { createConnectionSlice } from './connection-slice';
import { createContextSlice } from './context-slice';
import { createCodexSlice } from './codex-slice';
import { createGoalsSlice } from './goals-slice';
import { createInteractionsSlice } from './interactions-slice';
import { createMemorySlice } from './memory-slice';
import { createMcpSlice } from './mcp-slice';
import { createPreferencesSlice } from './preferences-slice';
import { createSessionsSlice } from './sessions-slice';
import { createShellSlice } from './shell-slice';
import { createSkillsSlice } from './skills-slice';
import { createSyncSlice } from './sync-slice';
import { createTranscriptSlice } from './transcript-slice';
import { createUiSlice } from './ui-slice';
import { createUsageSlice } from './usage-slice';
import { createWorkhubSlice } from './workhub-slice';
import { createWorkspaceSlice } from './workspace-slice';

/** Builds the renderer's one store from its slices. */
export function createAppStore(deps: StoreDeps): AppStore {
  return createStore<AppState>()((set, get) => ({
    ...createConnectionSlice(set, get, deps),
    ...createSessionsSlice(set, get, deps),
    ...createTranscriptSlice(set, get, deps),
    ...createComposerSlice(set, get, deps),
    ...createCatalogSlice(set, get, deps),
    ...createInteractionsSlice(set, get, deps),
    ...createGoalsSlice(set, get, deps),
    ...createUsageSlice(set, get, deps),
    ...createWorkhubSlice(set, get, deps),
    ...createWorkspaceSlice(set, get, deps),
    ...createShellSlice(set, get, deps),
    ...createSkillsSlice(set, get, deps),
    ...createMcpSlice(set, get, deps),
    ...createUiSlice(set, get, deps),
    ...createSyncSlice(set, get, deps),
    ...createAutomationsSlice(set, get, deps),
    ...createMemorySlice(set, get, deps),
    ...createBranchesSlice(set, get, deps),
    ...createChatSlice(set, get, deps),
    ...createContextSlice(set, get, deps),
    ...createAgentsSlice(set, get, deps),
    ...createAttachmentImagesSlice(set, get, deps),
    ...createCodexSlice(set, get, deps),
    ...createAcpSlice(set, get, deps),
    ...createChangesSlice(set, get, deps),
    ...createWorktreeSlice(set, get, deps),
    ...createPreferencesSlice(set, get, deps),
    ...createAcpInstallsSlice(set, get, deps),
  }));
}
