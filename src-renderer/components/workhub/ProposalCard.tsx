import { memo, useMemo } from 'react';
import type { TranscriptItem } from '../../../src-shared/model';
import type { Proposal, RouteResult } from '../../../src-shared/workhub-model';
import { WORKHUB_SESSION_ID } from '../../../src-shared/workhub-model';
import { describeHandedOver, describeProposal, proposalBody, targetStateNote } from '../../format/workhub-text';
import type { AppState } from '../../state/app-state';
import { isActionOf, OPEN_CARD } from '../../state/reducers/workhub-reducer';
import { cardView, decisionOf, hasRunningWork } from '../../state/workhub-card-view';
import { useAppStore, useStoreApi } from '../../state/store-context';
import '../../styles/workhub-cards.css';
import { isProposalItem } from '../../state/workhub-items';
import { cardChoices, proposalTarget, retarget, routedRequestOf, targetRef } from '../../state/workhub-proposals';
import { Spinner } from '../icons';
import { LazyMarkdown } from '../LazyMarkdown';
import { CandidateList, StateChip, useLiveState } from './CandidateList';
import { HandOffIcon, SparkIcon } from './workhub-icons';
import { FailureLine, HandedLine, ResultLine } from './ProposalResultLines';

/**
 * A WorkHub proposal in the transcript: what Cairn will do and why, the sessions it considered, and
 * the person's choices (Do it, Pick another, Start new instead, Cancel); after acting, what happened.
 */
export const ProposalCard = memo(function ProposalCard({ item }: { item: TranscriptItem }) {
  const route = useMemo(() => routedRequestOf(item), [item]);
  if (route === null) {
    return (
      <div className="message-line message-line-notice">
        <div data-testid="message" data-kind="proposal" data-item-id={item.itemId} className="message message-notice">
          {item.text === '' ? 'Cairn could not read this proposal.' : item.text}
        </div>
      </div>
    );
  }
  return <ProposalCardBody route={route} turnId={item.turnId} />;
});

/** The person's own words for the request: their message in the same WorkHub turn. */
const selectRequestText =
  (turnId: string) =>
  (state: AppState): string | null => {
    const transcript = state.transcripts[WORKHUB_SESSION_ID];
    if (transcript === undefined) return null;
    for (const itemId of transcript.itemIds) {
      const candidate = transcript.itemsById[itemId];
      if (candidate?.turnId === turnId && candidate.kind === 'user_message') return candidate.text;
    }
    return null;
  };

/** Whether the WorkHub already said something in that turn (an answer or a question back). */
const selectTurnAnswered =
  (turnId: string) =>
  (state: AppState): boolean => {
    const transcript = state.transcripts[WORKHUB_SESSION_ID];
    return (
      transcript?.itemIds.some((itemId) => {
        const said = transcript.itemsById[itemId];
        return said?.turnId === turnId && said.kind === 'assistant_message';
      }) ?? false
    );
  };

/** The form a choose act put in the WorkHub for this request (its turn is `choose-<action id>`), if there is one. */
const selectChoiceInteraction =
  (requestId: string) =>
  (state: AppState): string | null => {
    const transcript = state.transcripts[WORKHUB_SESSION_ID];
    if (transcript === undefined) return null;
    const prefix = `choose-${requestId}.`;
    for (const itemId of transcript.itemIds) {
      const said = transcript.itemsById[itemId];
      const interactionId = said?.data?.interactionId;
      if (said?.kind === 'tool_call' && said.turnId.startsWith(prefix) && typeof interactionId === 'string')
        return interactionId;
    }
    return null;
  };

/** The notice recording what became of a request's proposal (the item itself, so the selection stays stable). */
const selectDecisionItem =
  (requestId: string) =>
  (state: AppState): TranscriptItem | null => {
    const transcript = state.transcripts[WORKHUB_SESSION_ID];
    if (transcript === undefined) return null;
    for (let index = transcript.itemIds.length - 1; index >= 0; index -= 1) {
      const said = transcript.itemsById[transcript.itemIds[index] ?? ''];
      if (said?.kind === 'notice' && said.data?.requestId === requestId && said.data.workhubDecision !== undefined)
        return said;
    }
    return null;
  };

/** Whether this request's proposal is the newest in the WorkHub (only that one can still be acted on). */
const selectIsNewest =
  (requestId: string) =>
  (state: AppState): boolean => {
    const transcript = state.transcripts[WORKHUB_SESSION_ID];
    if (transcript === undefined) return false;
    for (let index = transcript.itemIds.length - 1; index >= 0; index -= 1) {
      const said = transcript.itemsById[transcript.itemIds[index] ?? ''];
      if (said !== undefined && isProposalItem(said)) return said.data?.requestId === requestId;
    }
    return false;
  };

function ProposalCardBody({ route, turnId }: { route: RouteResult; turnId: string }) {
  const store = useStoreApi();
  const card = useAppStore((state) => state.workhub.cards[route.requestId] ?? OPEN_CARD);
  const delegations = useAppStore((state) => state.workhub.delegations);
  const requestText = useAppStore(selectRequestText(turnId));
  const answered = useAppStore(selectTurnAnswered(turnId));
  // What the record says was done with this request, whichever window (or session before a reload) did it.
  const handed = useAppStore(
    (state) => state.workhub.delegations.find((known) => isActionOf(known.actionId, route.requestId)) ?? null,
  );
  const choiceId = useAppStore(selectChoiceInteraction(route.requestId));
  const decisionItem = useAppStore(selectDecisionItem(route.requestId));
  const newest = useAppStore(selectIsNewest(route.requestId));
  const decision = useMemo(
    () => (decisionItem === null ? null : (decisionOf(decisionItem)?.decision ?? null)),
    [decisionItem],
  );
  const { proposal } = route;
  const target = useMemo(
    () => proposalTarget(proposal, route.candidates, delegations),
    [proposal, route.candidates, delegations],
  );
  const liveState = useLiveState(target?.sessionId ?? null);
  const view = cardView({ decision, choiceId, handed, card, newest });
  const words = describeProposal(route, target);
  const choices = cardChoices(route);
  const body = proposalBody(proposal);
  const note = targetStateNote(proposal, liveState);
  const actions = store.getState();
  const act = (chosen: Proposal) => void actions.actOnProposal(route, chosen);

  if (view.kind === 'cancelled' || view.kind === 'superseded') {
    return (
      <div className="message-line message-line-proposal">
        <div
          className="proposal-card is-dismissed"
          data-testid="proposal-card"
          data-kind={proposal.kind}
          data-phase={view.kind}
          data-request-id={route.requestId}
        >
          <span className="proposal-dismissed-text" data-testid="proposal-result" data-result={view.kind}>
            {words.headline} —{' '}
            {view.kind === 'cancelled'
              ? 'cancelled; nothing was done.'
              : 'set aside for a newer request; nothing was done.'}
          </span>
        </div>
      </div>
    );
  }

  const answerOnly = !choices.doIt;
  const open = view.kind === 'open' || view.kind === 'acting' || (view.kind === 'failed' && !view.recorded);
  // Only running work can be stopped: over an idle session the card says so instead of offering Stop.
  const nothingToStop = open && proposal.kind === 'stop_work' && liveState !== null && !hasRunningWork(liveState);
  const phase = view.kind === 'open' && nothingToStop ? 'idle' : view.kind;
  const eyebrow = answerOnly
    ? 'Cairn'
    : view.kind === 'done'
      ? 'Cairn did'
      : view.kind === 'failed' && view.recorded
        ? 'Cairn could not'
        : 'Cairn proposes';
  return (
    <div className="message-line message-line-proposal">
      <article
        className={`proposal-card phase-${view.kind}${answerOnly ? ' is-answer' : ''}`}
        data-testid="proposal-card"
        data-kind={proposal.kind}
        data-phase={phase}
        data-request-id={route.requestId}
        aria-label={words.headline}
      >
        <div className="proposal-eyebrow">
          {answerOnly ? <SparkIcon /> : <HandOffIcon />}
          {eyebrow}
        </div>
        <p className="proposal-headline">
          <strong data-testid="proposal-headline">{words.headline}</strong>
          {words.reason !== '' ? <span className="proposal-reason"> — {trimStop(words.reason)}</span> : null}
          {liveState !== null && open ? <StateChip state={liveState} /> : null}
        </p>
        {note !== null && open ? <p className="proposal-note">{note}</p> : null}
        {nothingToStop ? (
          <p className="proposal-note" data-testid="nothing-to-stop">
            Nothing is running there now, so there is nothing to stop.
          </p>
        ) : null}
        {body !== null && !answered ? (
          <div className="proposal-body markdown">
            <LazyMarkdown text={body} />
          </div>
        ) : null}
        {proposal.kind === 'choose' || proposal.kind === 'create_new' || proposal.kind === 'delegate_existing' ? (
          <RequestQuote text={proposal.text} requestText={requestText} />
        ) : null}

        {view.kind === 'done' && !answerOnly ? (
          view.result === null || (view.result.kind === 'awaiting_choice' && handed !== null) ? (
            handed !== null ? (
              <HandedLine sessionId={handed.targetSessionId} text={describeHandedOver(handed)} />
            ) : null
          ) : (
            <ResultLine result={view.result} target={target} />
          )
        ) : null}
        {view.kind === 'failed' ? (
          <FailureLine
            error={view.error}
            recorded={view.recorded}
            target={target}
            requestText={requestText ?? ('text' in proposal ? proposal.text : null)}
            requestId={route.requestId}
          />
        ) : null}

        {!answerOnly && open && newest ? (
          <ProposalActions
            proposal={proposal}
            acting={view.kind === 'acting'}
            nothingToStop={nothingToStop}
            choices={choices}
            picking={card.picking}
            onAct={act}
            onPicking={(picking) => actions.setPicking(route.requestId, picking)}
            onCancel={() => void actions.cancelProposal(route.requestId)}
          />
        ) : null}

        <CandidateList
          candidates={route.candidates}
          proposedRef={targetRef(proposal)}
          fittingRefs={proposal.kind === 'choose' ? proposal.candidateRefs : []}
          picking={card.picking && open}
          disabled={view.kind === 'acting'}
          onPick={(candidate) => {
            const aimed = retarget(proposal, candidate.candidateRef);
            if (aimed !== null) act(aimed);
          }}
        />
      </article>
    </div>
  );
}

/** The card's buttons while it is open: do it (or Stop/Resume/Move it), pick another, start new, cancel. */
function ProposalActions(props: {
  proposal: Proposal;
  acting: boolean;
  nothingToStop: boolean;
  choices: ReturnType<typeof cardChoices>;
  picking: boolean;
  onAct: (chosen: Proposal) => void;
  onPicking: (picking: boolean) => void;
  onCancel: () => void;
}) {
  const { proposal, acting, nothingToStop, choices, picking, onAct, onPicking, onCancel } = props;
  return (
    <div className="proposal-actions">
      {nothingToStop ? null : (
        <button
          type="button"
          className={`button button-small ${proposal.kind === 'stop_work' ? 'button-danger' : 'button-primary'}`}
          disabled={acting}
          onClick={() => onAct(proposal)}
        >
          {primaryLabel(proposal)}
        </button>
      )}
      {choices.others.length > 0 ? (
        <button
          type="button"
          className="button button-small"
          aria-expanded={picking}
          disabled={acting}
          onClick={() => onPicking(!picking)}
        >
          {proposal.kind === 'choose' ? 'Pick one here' : 'Pick another'}
        </button>
      ) : null}
      {choices.startNew !== null ? (
        <button
          type="button"
          className="button button-small"
          disabled={acting}
          onClick={() => choices.startNew !== null && onAct(choices.startNew)}
        >
          Start new instead
        </button>
      ) : null}
      <button type="button" className="button button-small button-quiet" disabled={acting} onClick={onCancel}>
        Cancel
      </button>
      {acting ? (
        <span className="proposal-working" role="status">
          <Spinner />
          Working…
        </span>
      ) : null}
    </div>
  );
}

function primaryLabel(proposal: Proposal): string {
  switch (proposal.kind) {
    case 'stop_work':
      return 'Stop';
    case 'resume_work':
      return 'Resume';
    case 'correct':
      return 'Move it';
    default:
      return 'Do it';
  }
}

function trimStop(text: string): string {
  return text.replace(/\.\s*$/, '');
}

/** The text that will be handed over, when it differs from what the person typed. */
function RequestQuote({ text, requestText }: { text: string; requestText: string | null }) {
  if (requestText !== null && requestText.trim() === text.trim()) return null;
  return <blockquote className="proposal-quote">{text}</blockquote>;
}
