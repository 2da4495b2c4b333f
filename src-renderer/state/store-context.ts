import { createContext, createElement, useContext, type ReactNode } from 'react';
import { useStore } from 'zustand';
import type { AppState, AppStore } from './app-state';

const StoreContext = createContext<AppStore | null>(null);

export function StoreProvider({ store, children }: { store: AppStore; children: ReactNode }) {
  return createElement(StoreContext.Provider, { value: store }, children);
}

/** Selects one value from the store; components select narrowly (one value per call, or useShallow). */
export function useAppStore<T>(selector: (state: AppState) => T): T {
  const store = useContext(StoreContext);
  if (store === null) throw new Error('useAppStore needs a StoreProvider above it');
  return useStore(store, selector);
}

/** The store's actions, for event handlers (reading state there goes through getState()). */
export function useStoreApi(): AppStore {
  const store = useContext(StoreContext);
  if (store === null) throw new Error('useStoreApi needs a StoreProvider above it');
  return store;
}
