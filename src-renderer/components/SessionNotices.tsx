import { lazy, Suspense, useEffect } from 'react';
import { useAppStore, useStoreApi } from '../state/store-context';
import { retryingImport } from '../platform/retrying-import';

/** Each notice loads when it is first needed: most sessions never show one. */
const CodexQuarantineNotice = lazy(() =>
  retryingImport(() => import('./CodexQuarantineNotice')).then((module) => ({ default: module.CodexQuarantineNotice })),
);
const CodexThreadNotice = lazy(() =>
  retryingImport(() => import('./CodexThreadNotice')).then((module) => ({ default: module.CodexThreadNotice })),
);
const LeftoverWorktreesNotice = lazy(() =>
  retryingImport(() => import('./workspace/LeftoverWorktreesNotice')).then((module) => ({
    default: module.LeftoverWorktreesNotice,
  })),
);

/**
 * The notices under the session header that only a failure brings: a Codex app-server that did not
 * stop, a Codex thread that could not be resumed, worktrees left behind at start.
 */
export function SessionNotices({ sessionId }: { sessionId: string }) {
  const store = useStoreApi();
  const quarantined = useAppStore((state) => state.codexQuarantines[sessionId] !== undefined);
  const threadProblem = useAppStore((state) => {
    const problem = state.codexThreadProblems[sessionId];
    return problem !== undefined && !problem.resolved;
  });
  const leftovers = useAppStore((state) => (state.worktreeLeftovers?.length ?? 0) > 0);

  useEffect(() => {
    if (store.getState().worktreeLeftovers === null) void store.getState().loadWorktreeLeftovers();
  }, [store]);

  // One boundary each: a notice that is loading never hides one already shown.
  return (
    <>
      {quarantined ? (
        <Suspense fallback={null}>
          <CodexQuarantineNotice sessionId={sessionId} />
        </Suspense>
      ) : null}
      {threadProblem ? (
        <Suspense fallback={null}>
          <CodexThreadNotice sessionId={sessionId} />
        </Suspense>
      ) : null}
      {leftovers ? (
        <Suspense fallback={null}>
          <LeftoverWorktreesNotice />
        </Suspense>
      ) : null}
    </>
  );
}
