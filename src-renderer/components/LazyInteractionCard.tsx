import { lazy, Suspense } from 'react';
import { Spinner } from './icons';
import { retryingImport } from '../platform/retrying-import';

const InteractionCard = lazy(() =>
  retryingImport(() => import('./InteractionCard')).then((module) => ({ default: module.InteractionCard })),
);

/**
 * An interaction card, with its forms, approvals and answer records loaded when the first one is shown
 * (and preloaded once the app is idle: see preload-chunks); until then it shows as the card does while
 * it reads its interaction.
 */
export function LazyInteractionCard({ interactionId }: { interactionId: string }) {
  return (
    <Suspense
      fallback={
        <div className="interaction is-loading" data-testid="interaction" data-interaction-id={interactionId}>
          <Spinner label="Loading the question" />
        </div>
      }
    >
      <InteractionCard interactionId={interactionId} />
    </Suspense>
  );
}
