/**
 * Views kept out of the first load (each its own chunk, loaded by React.lazy where it shows) that a
 * session surely needs soon: they are fetched once the person first acts in the window, so the
 * first answer, the first "/" or the first approval does not wait on the network or the disk (nor
 * on a host that has since gone away).
 */
const SOON: ReadonlyArray<() => Promise<unknown>> = [
  () => import('./Markdown'),
  () => import('./SlashMenu'),
  () => import('./ModelComboboxPopup'),
  () => import('./InteractionCard'),
  () => import('./workspace/ToolCallDetails'),
  () => import('./QueuedMessages'),
  // Highlighting, so the first code block an answer streams does not stall it: the task that loaded
  // it there took 40–53 ms in traces, 27–31 ms with it loaded beforehand.
  () => import('../markdown/markdown-options').then((module) => module.loadHighlighting()),
];

/**
 * Fetches the chunks above, when the window is next idle, once the person first presses a key or the
 * pointer: never in the way of the first load (fetched at the first idle moment they made opening a
 * session with 1,000 others 1.3× slower), and in time for the first "/" or approval.
 */
export function preloadSoonNeededChunks(window: Window): void {
  const load = () => {
    // A failure here is left to the view that needs the chunk: React.lazy reports it there.
    for (const chunk of SOON) chunk().catch(() => undefined);
  };
  const onFirstInput = () => {
    window.removeEventListener('keydown', onFirstInput, true);
    window.removeEventListener('pointerdown', onFirstInput, true);
    if (typeof window.requestIdleCallback === 'function') window.requestIdleCallback(load);
    else window.setTimeout(load, 0);
  };
  window.addEventListener('keydown', onFirstInput, true);
  window.addEventListener('pointerdown', onFirstInput, true);
}
