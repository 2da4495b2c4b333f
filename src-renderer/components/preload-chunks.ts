/**
 * Views kept out of the first load (each its own chunk, loaded by React.lazy where it shows) that a
 * session surely needs soon: they are fetched once the window is idle after the first paint, so the
 * first answer, the first "/" or the first approval does not wait on the network or the disk (nor
 * on a host that has since gone away).
 */
const SOON: ReadonlyArray<() => Promise<unknown>> = [
  () => import('./Markdown'),
  () => import('./SlashMenu'),
  () => import('./ModelComboboxPopup'),
  () => import('./InteractionCard'),
  () => import('./workspace/ToolCallDetails'),
];

/** Fetches the chunks above when the window is first idle: never forced while the first load still works (a long session list). */
export function preloadSoonNeededChunks(window: Window): void {
  const load = () => {
    // A failure here is left to the view that needs the chunk: React.lazy reports it there.
    for (const chunk of SOON) chunk().catch(() => undefined);
  };
  if (typeof window.requestIdleCallback === 'function') window.requestIdleCallback(load);
  else window.setTimeout(load, 2000);
}
