import type { StoreApi } from 'zustand/vanilla';
import type { HostLink } from '../bridge/host-link';
import type { AppLocation } from '../platform/app-location';
import type { DraftStorage } from '../platform/draft-storage';
import type { FrameScheduler } from '../platform/frame-scheduler';
import type { NotificationPermissionPort, Notifier } from '../platform/notifier';
import type { Appearance } from './appearance';
import type { AcpInstallsSlice } from './acp-installs-slice';
import type { AcpSlice } from './acp-slice';
import type { AgentsSlice } from './agents-slice';
import type { AttachmentImagesSlice } from './attachment-images-slice';
import type { AutomationsSlice } from './automations-slice';
import type { BranchesSlice } from './branches-slice';
import type { CatalogSlice } from './catalog-slice';
import type { CodexSlice } from './codex-slice';
import type { ChangesSlice } from './changes-slice';
import type { ChatSlice } from './chat-slice';
import type { ComposerSlice } from './composer-slice';
import type { ConnectionSlice } from './connection-slice';
import type { ContextSlice } from './context-slice';
import type { GoalsSlice } from './goals-slice';
import type { InteractionsSlice } from './interactions-slice';
import type { MemorySlice } from './memory-slice';
import type { McpSlice } from './mcp-slice';
import type { PreferencesSlice } from './preferences-slice';
import type { SessionsSlice } from './sessions-slice';
import type { ShellSlice } from './shell-slice';
import type { SkillsSlice } from './skills-slice';
import type { SyncSlice } from './sync-slice';
import type { TranscriptSlice } from './transcript-slice';
import type { UiSlice } from './ui-slice';
import type { UsageSlice } from './usage-slice';
import type { WorkhubSlice } from './workhub-slice';
import type { WorkspaceSlice } from './workspace-slice';
import type { WorktreeSlice } from './worktree-slice';

/** The whole renderer state: one store built from typed slices (ARCHITECTURE.md §6). */
export type AppState = ConnectionSlice &
  SessionsSlice &
  TranscriptSlice &
  ComposerSlice &
  CatalogSlice &
  InteractionsSlice &
  GoalsSlice &
  UsageSlice &
  WorkhubSlice &
  WorkspaceSlice &
  ShellSlice &
  SkillsSlice &
  McpSlice &
  UiSlice &
  SyncSlice &
  AutomationsSlice &
  MemorySlice &
  BranchesSlice &
  ChatSlice &
  ContextSlice &
  AgentsSlice &
  AttachmentImagesSlice &
  CodexSlice &
  AcpSlice &
  ChangesSlice &
  WorktreeSlice &
  PreferencesSlice &
  AcpInstallsSlice;

export type AppStore = StoreApi<AppState>;

export interface Timers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** What store actions reach outside the store through; injected so tests can fake each one. */
export interface StoreDeps {
  readonly link: HostLink;
  readonly frames: FrameScheduler;
  readonly location: AppLocation;
  readonly newId: () => string;
  readonly timers: Timers;
  /** Keeps half-filled answers across reloads. */
  readonly draftStorage: DraftStorage;
  /** Tells the person about something that waits for them while the window is in the background. */
  readonly notify?: Notifier;
  /** The browser's permission to notify (a browser tab only; the desktop app notifies from its main process). */
  readonly notificationPermission?: NotificationPermissionPort;
  /** Applies a theme and text size to the page at once. */
  readonly applyAppearance?: (appearance: Appearance) => void;
}

export type SliceCreator<Slice> = (set: AppStore['setState'], get: AppStore['getState'], deps: StoreDeps) => Slice;
