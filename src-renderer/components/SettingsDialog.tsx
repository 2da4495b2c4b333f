import { lazy, Suspense, useRef, useState, type KeyboardEvent } from 'react';
import { onDevicePage } from '../platform/device-page';
import { retryingImport } from '../platform/retrying-import';
import { useAppStore, useStoreApi } from '../state/store-context';
import type { SettingsPage } from '../state/ui-slice';
import { ConnectionsPage } from './ConnectionsPage';
import { Dialog } from './Dialog';
import { MemoryPage } from './MemoryPage';
import { McpServersPage } from './mcp/McpServersPage';
import { CloseIcon } from './icons';
import { UsagePage } from './UsagePage';
import { InstructionsPage } from './InstructionsPage';
import { GeneralPage } from './GeneralPage';
import { SandboxPage } from './SandboxPage';

// Loaded when first shown: pairing and devices are rare visits.
const DevicesPage = lazy(() =>
  retryingImport(() => import('./devices/DevicesPage')).then((module) => ({ default: module.DevicesPage })),
);
const StoragePage = lazy(() =>
  retryingImport(() => import('./storage/StoragePage')).then((module) => ({ default: module.StoragePage })),
);

// Likewise the editor setup (cairn acp): a visit made once.
const EditorPage = lazy(() =>
  retryingImport(() => import('./editor/EditorPage')).then((module) => ({ default: module.EditorPage })),
);
// Loaded when first shown, as Devices.
const HooksPage = lazy(() =>
  retryingImport(() => import('./hooks/HooksPage')).then((module) => ({ default: module.HooksPage })),
);

const TABS: ReadonlyArray<{ readonly tab: SettingsPage['tab']; readonly label: string }> = [
  { tab: 'connections', label: 'Connections' },
  { tab: 'mcp', label: 'Tools (MCP)' },
  { tab: 'usage', label: 'Usage' },
  { tab: 'memory', label: 'Memory' },
  { tab: 'instructions', label: 'Instructions' },
  { tab: 'sandbox', label: 'Sandbox' },
  { tab: 'hooks', label: 'Hooks' },
  { tab: 'devices', label: 'Devices' },
  { tab: 'storage', label: 'Storage' },
  { tab: 'editor', label: 'Editors' },
  { tab: 'general', label: 'General' },
];

/** Settings: connections to model providers (add, edit, test, models, default) and token usage. Esc closes it. */
export function SettingsDialog() {
  const store = useStoreApi();
  const page = useAppStore((state) => state.settings);
  const tabRefs = useRef<Array<HTMLButtonElement | null>>([]);
  const [onDevice] = useState(onDevicePage);
  if (page === null) return null;
  const actions = store.getState();
  const close = () => actions.closeSettings();
  const open = (tab: SettingsPage['tab']) =>
    actions.openSettings(tab === 'connections' ? { tab, connectionId: null } : { tab });

  // Arrow keys move between tabs (the tablist pattern; down and up in the list beside a phone's width,
  // right and left in the row on a phone); Tab moves on into the panel.
  const onTabKey = (event: KeyboardEvent<HTMLButtonElement>, index: number) => {
    const step = ['ArrowRight', 'ArrowDown'].includes(event.key)
      ? 1
      : ['ArrowLeft', 'ArrowUp'].includes(event.key)
        ? -1
        : 0;
    if (step === 0) return;
    event.preventDefault();
    const next = (index + step + TABS.length) % TABS.length;
    const target = TABS[next];
    if (target === undefined) return;
    open(target.tab);
    tabRefs.current[next]?.focus();
  };

  return (
    <Dialog labelledBy="settings-title" onClose={close} className="settings-dialog">
      <div className="settings-top" data-testid="settings">
        <h2 id="settings-title">Settings</h2>
        <div
          className="settings-tabs"
          role="tablist"
          aria-label="Settings sections"
          aria-orientation={window.matchMedia('(min-width: 641px)').matches ? 'vertical' : 'horizontal'}
        >
          {TABS.map(({ tab, label }, index) => (
            <button
              key={tab}
              ref={(element) => {
                tabRefs.current[index] = element;
              }}
              type="button"
              role="tab"
              id={`settings-tab-${tab}`}
              aria-selected={page.tab === tab}
              aria-controls="settings-panel"
              tabIndex={page.tab === tab ? 0 : -1}
              className="settings-tab"
              onClick={() => open(tab)}
              onKeyDown={(event) => onTabKey(event, index)}
            >
              {label}
            </button>
          ))}
        </div>
        <button type="button" className="icon-button" aria-label="Close settings" title="Close (Esc)" onClick={close}>
          <CloseIcon />
        </button>
      </div>
      <div className="settings-panel" id="settings-panel" role="tabpanel" aria-labelledby={`settings-tab-${page.tab}`}>
        {onDevice && (page.tab === 'connections' || page.tab === 'mcp') ? (
          <DesktopOnly
            what={page.tab === 'mcp' ? 'Tools (MCP servers)' : 'Connections, their keys and agent installs'}
          />
        ) : page.tab === 'connections' ? (
          <ConnectionsPage selected={page.connectionId} />
        ) : page.tab === 'mcp' ? (
          <McpServersPage />
        ) : page.tab === 'memory' ? (
          <MemoryPage />
        ) : page.tab === 'instructions' ? (
          <InstructionsPage />
        ) : page.tab === 'sandbox' ? (
          <SandboxPage />
        ) : page.tab === 'general' ? (
          <GeneralPage />
        ) : page.tab === 'hooks' ? (
          <Suspense fallback={null}>
            <HooksPage />
          </Suspense>
        ) : page.tab === 'devices' ? (
          <Suspense fallback={null}>
            <DevicesPage />
          </Suspense>
        ) : page.tab === 'storage' ? (
          <Suspense fallback={null}>
            <StoragePage />
          </Suspense>
        ) : page.tab === 'editor' ? (
          <Suspense fallback={null}>
            <EditorPage />
          </Suspense>
        ) : (
          <UsagePage />
        )}
      </div>
    </Dialog>
  );
}

/** A paired device's page in place of what stays on the desktop (docs/remote.md); the host refuses it anyway. */
function DesktopOnly({ what }: { what: string }) {
  return (
    <p className="settings-note" data-testid="settings-desktop-only">
      <strong>Only on the desktop.</strong> {what} are changed on the computer running Cairn, not from a paired device.
    </p>
  );
}
