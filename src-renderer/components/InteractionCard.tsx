import { lazy, Suspense, useEffect, useRef } from 'react';
import type { InteractionRecord } from '../../src-shared/interaction-model';
import { useFocusAfterAnswer } from '../hooks/use-focus-after-answer';
import { useAppStore, useStoreApi } from '../state/store-context';
import { AnswerRecord } from './AnswerRecord';
import { FormIcon, QuestionIcon, ShieldIcon, Spinner } from './icons';
import { NetworkPrompt } from './NetworkPrompt';
import { PermissionPrompt } from './PermissionPrompt';
import { retryingImport } from '../platform/retrying-import';

/** The forms to answer a question or fill a form load when the first one is pending. */
const QuestionForm = lazy(() =>
  retryingImport(() => import('./QuestionForm')).then((module) => ({ default: module.QuestionForm })),
);
const FormRequestView = lazy(() =>
  retryingImport(() => import('./FormRequestView')).then((module) => ({ default: module.FormRequestView })),
);

/**
 * An interaction, inline in the transcript where the agent asked: the form to answer while it is
 * pending, a compact read-only record once it is settled.
 */
export function InteractionCard({ interactionId }: { interactionId: string }) {
  const store = useStoreApi();
  const record = useAppStore((state) => state.interactions.byId[interactionId]);
  const focusRequested = useAppStore((state) => state.focusInteractionId === interactionId);
  const ref = useRef<HTMLElement>(null);

  useEffect(() => {
    if (record === undefined) void store.getState().ensureInteraction(interactionId);
  }, [record, interactionId, store]);

  // A half-filled answer survives a reload; once the interaction is settled its draft goes.
  const status = record?.status;
  useEffect(() => {
    if (status === 'pending') store.getState().restoreInteractionDraft(interactionId);
    else if (status !== undefined) store.getState().forgetInteractionDraft(interactionId);
  }, [status, interactionId, store]);

  useFocusAfterAnswer(ref, record);

  // After a jump from "Waiting for you": bring the card into view and put focus on its first control
  // (an approval takes focus on the card itself, so no key press decides it).
  useEffect(() => {
    if (!focusRequested || record === undefined || ref.current === null) return;
    store.getState().clearInteractionFocus();
    ref.current.scrollIntoView({ block: 'nearest' });
    const first =
      record.request.kind === 'permission'
        ? null
        : ref.current.querySelector<HTMLElement>('input:not([disabled]), textarea, select, button:not([disabled])');
    (first ?? ref.current).focus();
  }, [focusRequested, record, store]);

  if (record === undefined) {
    return (
      <div className="interaction is-loading" data-testid="interaction" data-interaction-id={interactionId}>
        <Spinner label="Loading the question" />
      </div>
    );
  }
  const pending = record.status === 'pending';
  return (
    <section
      ref={ref}
      tabIndex={-1}
      className={`interaction interaction-${record.request.kind} is-${record.status}`}
      data-testid="interaction"
      data-interaction-id={interactionId}
      data-kind={record.request.kind}
      data-status={record.status}
      aria-labelledby={`${interactionId}-title`}
    >
      <header className="interaction-header">
        <KindIcon record={record} />
        <h3 id={`${interactionId}-title`} className="interaction-title">
          {titleOf(record)}
        </h3>
        {pending ? <span className="interaction-pill">Waiting for you</span> : null}
      </header>
      {pending ? <PendingBody record={record} /> : <AnswerRecord record={record} />}
    </section>
  );
}

function PendingBody({ record }: { record: InteractionRecord }) {
  switch (record.request.kind) {
    case 'question':
      return (
        <Suspense fallback={null}>
          <QuestionForm interactionId={record.interactionId} request={record.request} />
        </Suspense>
      );
    case 'form':
      return (
        <Suspense fallback={null}>
          <FormRequestView interactionId={record.interactionId} request={record.request} />
        </Suspense>
      );
    case 'permission':
      return (
        <PermissionPrompt interactionId={record.interactionId} sessionId={record.sessionId} request={record.request} />
      );
    case 'network':
      return <NetworkPrompt interactionId={record.interactionId} request={record.request} />;
  }
}

function titleOf(record: InteractionRecord): string {
  switch (record.request.kind) {
    case 'question':
      if (record.status !== 'pending') return record.request.questions.length === 1 ? 'Your answer' : 'Your answers';
      return record.request.questions.length === 1
        ? 'The agent has a question'
        : `The agent has ${record.request.questions.length} questions`;
    case 'form':
      return record.request.title;
    case 'permission':
      return record.status === 'pending' ? 'Permission needed' : 'Permission';
    case 'network':
      return `Allow network to ${record.request.host}`;
  }
}

function KindIcon({ record }: { record: InteractionRecord }) {
  const icon =
    record.request.kind === 'question' ? (
      <QuestionIcon />
    ) : record.request.kind === 'form' ? (
      <FormIcon />
    ) : (
      <ShieldIcon />
    );
  return (
    <span className="interaction-icon" aria-hidden="true">
      {icon}
    </span>
  );
}
