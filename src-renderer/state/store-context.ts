import { createContext, createElement, useContext, useRef, type ReactNode } from 'react';
import { useStore } from 'zustand';
import type { AppState, AppStore } from './app-state';
import { sameFieldsOr, type Fields } from './same-fields';

const StoreContext = createContext<AppStore | null>(null);

export function StoreProvider({ store, children }: { store: AppStore; children: ReactNode }) {
  return createElement(StoreContext.Provider, { value: store }, children);
}

/** Selects one value from the store; components select narrowly (one value per call, or useAppFields). */
export function useAppStore<T>(selector: (state: AppState) => T): T {
  const store = useContext(StoreContext);
  if (store === null) throw new Error('useAppStore needs a StoreProvider above it');
  return useStore(store, selector);
}

/**
 * Selects a flat record of values in one subscription: the same object is returned while every field is
 * the same, so the component renders only when one changes. What zustand's `useShallow` does, for flat
 * records only: its general comparison (maps, sets, iterables) costs the first load more bytes than a
 * row of the sidebar, the one user, needs.
 */
export function useAppFields<T extends Fields>(selector: (state: AppState) => T): T {
  const previous = useRef<T | null>(null);
  return useAppStore((state) => {
    previous.current = sameFieldsOr(previous.current, selector(state));
    return previous.current;
  });
}

/** The store's actions, for event handlers (reading state there goes through getState()). */
export function useStoreApi(): AppStore {
  const store = useContext(StoreContext);
  if (store === null) throw new Error('useStoreApi needs a StoreProvider above it');
  return store;
}
