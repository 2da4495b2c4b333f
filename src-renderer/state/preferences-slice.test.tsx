import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { GeneralPage } from '../components/GeneralPage';
import type { NotificationPermissionState } from '../platform/notifier';
import { StoreProvider } from './store-context';
import { setupStore } from './test-store';

describe('desktop notifications', () => {
  it('say why they stay off when the browser’s prompt was closed without an answer', async () => {
    let permission: NotificationPermissionState = 'default';
    const { store, disconnect } = setupStore({
      notificationPermission: { current: () => permission, request: () => Promise.resolve(permission) },
    });
    const page = () =>
      renderToStaticMarkup(
        <StoreProvider store={{ ...store, getInitialState: () => store.getState() }}>{<GeneralPage />}</StoreProvider>,
      );
    await store.getState().setNotificationsOn(true);
    expect(store.getState().notifications).toMatchObject({ permission: 'default', chosen: true, dismissed: true });
    expect(page()).toContain('closed without an answer, so notifications stay off');

    permission = 'granted';
    await store.getState().setNotificationsOn(true);
    expect(store.getState().notifications.dismissed).toBe(false);
    expect(page()).not.toContain('closed without an answer');
    disconnect();
  });
});
