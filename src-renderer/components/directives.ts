import { useSyncExternalStore } from 'react';
import type { OfflineDemoDirective } from '../../src-shared/offline-demo-directives';
import { retryingImport } from '../platform/retrying-import';

/**
 * The Offline demo agent's directives (the / menu, the help panel, an empty demo session's chips) are a
 * chunk of their own, outside the first load: loading starts as this module is evaluated, at the page's
 * start, so they are in long before a session can be typed into. Empty until they arrive.
 */
let directives: readonly OfflineDemoDirective[] = [];
const watchers = new Set<() => void>();

void retryingImport(() => import('../../src-shared/offline-demo-directives')).then(
  (module) => {
    directives = module.OFFLINE_DEMO_DIRECTIVES;
    for (const watcher of watchers) watcher();
  },
  () => undefined,
);

function watch(watcher: () => void): () => void {
  watchers.add(watcher);
  return () => watchers.delete(watcher);
}

/** Every directive of the Offline demo agent, once loaded. */
export function useDirectives(): readonly OfflineDemoDirective[] {
  const current = () => directives;
  return useSyncExternalStore(watch, current, current);
}

/** The few an empty session offers as chips, to try the demo at a glance. */
export function featuredDirectives(all: readonly OfflineDemoDirective[]): readonly OfflineDemoDirective[] {
  return all.filter((directive) => directive.featured);
}
