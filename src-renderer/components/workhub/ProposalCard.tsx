import { memo, useMemo } from 'react';
import type { TranscriptItem } from '../../../src-shared/model';
import type { ActResult, Proposal, RouteResult } from '../../../src-shared/workhub-model';
import { WORKHUB_SESSION_ID } from '../../../src-shared/workhub-model';
import { describeActError, describeHandedOver, describeProposal, describeResult, proposalBody, targetStateNote } from '../../format/workhub-text';
import type { ProposalCardState } from '../../state/reducers/workhub-reducer';
import type { AppState } from '../../state/app-state';
import { isActionOf, OPEN_CARD } from '../../state/reducers/workhub-reducer';
import { useAppStore, useStoreApi } from '../../state/store-context';
import '../../styles/workhub-cards.css';
import type { ProposalTarget } from '../../state/workhub-proposals';
import { cardChoices, proposalTarget, retarget, routedRequestOf, targetRef } from '../../state/workhub-proposals';
import { AlertIcon, CheckIcon, Spinner } from '../icons';
import { Markdown } from '../Markdown';
import { CandidateList, StateChip } from './CandidateList';
import { HandOffIcon, SparkIcon } from './workhub-icons';

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
const selectRequestText = (turnId: string) => (state: AppState): string | null => {
  const transcript = state.transcripts[WORKHUB_SESSION_ID];
  if (transcript === undefined) return null;
  for (const itemId of transcript.itemIds) {
    const candidate = transcript.itemsById[itemId];
    if (candidate?.turnId === turnId && candidate.kind === 'user_message') return candidate.text;
  }
  return null;
};

/** Whether the WorkHub already said something in that turn (an answer or a question back). */
const selectTurnAnswered = (turnId: string) => (state: AppState): boolean => {
  const transcript = state.transcripts[WORKHUB_SESSION_ID];
  return transcript?.itemIds.some((itemId) => {
    const said = transcript.itemsById[itemId];
    return said?.turnId === turnId && said.kind === 'assistant_message';
  }) ?? false;
};

/** The form a choose act put in the WorkHub for this request (its turn is `choose-<action id>`), if there is one. */
const selectChoiceInteraction = (requestId: string) => (state: AppState): string | null => {
  const transcript = state.transcripts[WORKHUB_SESSION_ID];
  if (transcript === undefined) return null;
  const prefix = `choose-${requestId}.`;
  for (const itemId of transcript.itemIds) {
    const said = transcript.itemsById[itemId];
    const interactionId = said?.data?.interactionId;
    if (said?.kind === 'tool_call' && said.turnId.startsWith(prefix) && typeof interactionId === 'string') return interactionId;
  }
  return null;
};

function ProposalCardBody({ route, turnId }: { route: RouteResult; turnId: string }) {
  const store = useStoreApi();
  const card = useAppStore((state) => state.workhub.cards[route.requestId] ?? OPEN_CARD);
  const delegations = useAppStore((state) => state.workhub.delegations);
  const requestText = useAppStore(selectRequestText(turnId));
  const answered = useAppStore(selectTurnAnswered(turnId));
  // What the record says was done with this request, whichever window (or session before a reload) did it.
  const handed = useAppStore((state) => state.workhub.delegations.find((known) => isActionOf(known.actionId, route.requestId)) ?? null);
  const choiceId = useAppStore(selectChoiceInteraction(route.requestId));
  const { proposal } = route;
  const target = useMemo(() => proposalTarget(proposal, route.candidates, delegations), [proposal, route.candidates, delegations]);
  const words = describeProposal(route, target);
  const choices = cardChoices(route);
  const body = proposalBody(proposal);
  const note = targetStateNote(proposal, target?.candidate?.state ?? null);
  const actions = store.getState();
  const act = (chosen: Proposal) => void actions.actOnProposal(route, chosen);

  if (card.phase === 'dismissed') {
    return (
      <div className="message-line message-line-proposal">
        <div className="proposal-card is-dismissed" data-testid="proposal-card" data-kind={proposal.kind} data-phase="dismissed" data-request-id={route.requestId}>
          <span className="proposal-dismissed-text">Cancelled — nothing was done. {words.headline}.</span>
          <button type="button" className="text-button" onClick={() => actions.dismissProposal(route.requestId, false)}>
            Show again
          </button>
        </div>
      </div>
    );
  }

  const answerOnly = !choices.doIt;
  const recorded = card.phase === 'open' && (handed !== null || choiceId !== null);
  const phase = recorded ? 'done' : card.phase;
  const outcome: ActResult | null = card.result ?? (choiceId === null ? null : { kind: 'awaiting_choice', interactionId: choiceId });
  return (
    <div className="message-line message-line-proposal">
      <article
        className={`proposal-card phase-${phase}${answerOnly ? ' is-answer' : ''}`}
        data-testid="proposal-card"
        data-kind={proposal.kind}
        data-phase={phase}
        data-request-id={route.requestId}
        aria-label={words.headline}
      >
        <div className="proposal-eyebrow">
          {answerOnly ? <SparkIcon /> : <HandOffIcon />}
          {answerOnly ? 'Cairn' : phase === 'done' ? 'Cairn did' : 'Cairn proposes'}
        </div>
        <p className="proposal-headline">
          <strong data-testid="proposal-headline">{words.headline}</strong>
          {words.reason !== '' ? <span className="proposal-reason"> — {trimStop(words.reason)}</span> : null}
          {target?.candidate !== null && target?.candidate !== undefined && phase !== 'done' ? <StateChip state={target.candidate.state} /> : null}
        </p>
        {note !== null && phase !== 'done' ? <p className="proposal-note">{note}</p> : null}
        {body !== null && !answered ? (
          <div className="proposal-body markdown">
            <Markdown text={body} />
          </div>
        ) : null}
        {proposal.kind === 'choose' || proposal.kind === 'create_new' || proposal.kind === 'delegate_existing' ? (
          <RequestQuote text={proposal.text} requestText={requestText} />
        ) : null}

        {phase === 'done' && !answerOnly ? (
          handed !== null && (outcome === null || outcome.kind === 'awaiting_choice') ? (
            <HandedLine sessionId={handed.targetSessionId} text={describeHandedOver(handed)} />
          ) : outcome !== null ? (
            <ResultLine result={outcome} target={target} />
          ) : null
        ) : null}
        {card.phase === 'failed' && card.error !== null ? (
          <FailureLine card={card} target={target} requestText={requestText ?? ('text' in proposal ? proposal.text : null)} requestId={route.requestId} />
        ) : null}

        {!answerOnly && phase !== 'done' ? (
          <div className="proposal-actions">
            <button
              type="button"
              className={`button button-small ${proposal.kind === 'stop_work' ? 'button-danger' : 'button-primary'}`}
              disabled={card.phase === 'acting'}
              onClick={() => act(proposal)}
            >
              {primaryLabel(proposal)}
            </button>
            {choices.others.length > 0 ? (
              <button
                type="button"
                className="button button-small"
                aria-expanded={card.picking}
                disabled={card.phase === 'acting'}
                onClick={() => actions.setPicking(route.requestId, !card.picking)}
              >
                {proposal.kind === 'choose' ? 'Pick one here' : 'Pick another'}
              </button>
            ) : null}
            {choices.startNew !== null ? (
              <button type="button" className="button button-small" disabled={card.phase === 'acting'} onClick={() => choices.startNew !== null && act(choices.startNew)}>
                Start new instead
              </button>
            ) : null}
            <button
              type="button"
              className="button button-small button-quiet"
              disabled={card.phase === 'acting'}
              onClick={() => actions.dismissProposal(route.requestId, true)}
            >
              Cancel
            </button>
            {card.phase === 'acting' ? (
              <span className="proposal-working" role="status">
                <Spinner />
                Working…
              </span>
            ) : null}
          </div>
        ) : null}

        <CandidateList
          candidates={route.candidates}
          proposedRef={targetRef(proposal)}
          fittingRefs={proposal.kind === 'choose' ? proposal.candidateRefs : []}
          picking={card.picking && phase !== 'done'}
          disabled={card.phase === 'acting'}
          onPick={(candidate) => {
            const aimed = retarget(proposal, candidate.candidateRef);
            if (aimed !== null) act(aimed);
          }}
        />
      </article>
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

function resultSessionId(result: ActResult, target: ProposalTarget | null): string | null {
  switch (result.kind) {
    case 'delegated':
    case 'resumed':
    case 'corrected':
      return result.delegation.targetSessionId;
    case 'stopped':
      return result.delegation?.targetSessionId ?? target?.sessionId ?? null;
    default:
      return null;
  }
}

function ResultLine({ result, target }: { result: ActResult; target: ProposalTarget | null }) {
  const store = useStoreApi();
  const choice = useAppStore((state) => (result.kind === 'awaiting_choice' ? (state.interactions.byId[result.interactionId]?.status ?? 'pending') : null));
  const sessionId = resultSessionId(result, target);
  const text =
    choice === null || choice === 'pending'
      ? describeResult(result, target?.title ?? null)
      : choice === 'answered'
        ? 'You picked where it goes — see Tasks for how it is doing'
        : 'You closed the choice — nothing was handed over';
  return (
    <div className={`proposal-result result-${result.kind}`} role="status">
      <CheckIcon />
      <span data-testid="proposal-result" data-result={result.kind} data-outcome={result.kind === 'stopped' ? result.outcome : undefined}>
        {text}
      </span>
      {sessionId !== null ? (
        <button type="button" className="button button-small" data-testid="open-target" onClick={() => store.getState().selectSession(sessionId)}>
          Open session
        </button>
      ) : null}
    </div>
  );
}

function HandedLine({ sessionId, text }: { sessionId: string; text: string }) {
  const store = useStoreApi();
  return (
    <div className="proposal-result result-delegated" role="status">
      <CheckIcon />
      <span data-testid="proposal-result" data-result="delegated">
        {text}
      </span>
      <button type="button" className="button button-small" data-testid="open-target" onClick={() => store.getState().selectSession(sessionId)}>
        Open session
      </button>
    </div>
  );
}

function FailureLine({ card, target, requestText, requestId }: { card: ProposalCardState; target: ProposalTarget | null; requestText: string | null; requestId: string }) {
  const store = useStoreApi();
  if (card.error === null) return null;
  const { message, reroute } = describeActError(card.error, target?.title ?? null);
  return (
    <div className="proposal-failure" role="alert" data-testid="proposal-error" data-code={card.error.code}>
      <AlertIcon />
      <span>{message}</span>
      {reroute && requestText !== null ? (
        <button type="button" className="button button-small" onClick={() => void store.getState().routeAgain(requestText)}>
          Route again
        </button>
      ) : null}
      {!reroute && card.error.code !== 'invalid_input' ? (
        <button type="button" className="button button-small" onClick={() => void store.getState().retryAct(requestId)}>
          Try again
        </button>
      ) : null}
    </div>
  );
}
