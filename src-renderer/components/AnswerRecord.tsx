import type {
  FormRequest,
  FormValue,
  InteractionRecord,
  QuestionAnswer,
  QuestionRequest,
} from '../../src-shared/interaction-model';

/** A settled interaction as a compact read-only record: the answers given (secrets masked by the host), or why it closed. */
export function AnswerRecord({ record }: { record: InteractionRecord }) {
  const { answer, request } = record;
  if (record.status === 'closed') {
    return (
      <p className="answer-outcome" data-testid="interaction-outcome">
        {closedText(record.closeReason)}
      </p>
    );
  }
  if (answer === null || answer.action === 'decline') {
    return (
      <p className="answer-outcome" data-testid="interaction-outcome">
        {request.kind === 'question'
          ? 'You skipped this.'
          : request.kind === 'permission'
            ? 'You denied this.'
            : 'You declined to fill this in.'}
        <AnsweredFrom record={record} />
      </p>
    );
  }
  if (answer.action === 'cancel') {
    return (
      <p className="answer-outcome" data-testid="interaction-outcome">
        You dismissed this without answering.
      </p>
    );
  }
  if (answer.action === 'deny') {
    return (
      <p className="answer-outcome decision-deny" data-testid="interaction-outcome">
        Denied
        <AnsweredFrom record={record} />
        {answer.reason !== undefined && answer.reason !== '' ? ` — “${answer.reason}”` : ''}
        <RequestDetail request={request} />
      </p>
    );
  }
  if ('decision' in answer) {
    const text = {
      allow_once: 'Allowed once',
      allow_session: 'Allowed for this session',
      allow_once_unsandboxed: 'Run once without sandbox',
    }[answer.decision];
    return (
      <p className={`answer-outcome decision-${answer.decision}`} data-testid="interaction-outcome">
        {text}
        <AnsweredFrom record={record} />
        <RequestDetail request={request} />
      </p>
    );
  }
  if ('network' in answer) {
    const text = {
      allow_once: 'Allowed for the next command',
      allow_session: 'Allowed for this session',
      allow_always: 'Always allowed',
    }[answer.network];
    return (
      <p className={`answer-outcome decision-${answer.network}`} data-testid="interaction-outcome">
        {text}
        <AnsweredFrom record={record} />
        <RequestDetail request={request} />
      </p>
    );
  }
  if ('answers' in answer && request.kind === 'question')
    return <QuestionRecord request={request} answers={answer.answers} />;
  if ('values' in answer && request.kind === 'form') return <FormRecord request={request} values={answer.values} />;
  return null;
}

/** What was allowed or denied: the tool call's summary, or the blocked host. */
function RequestDetail({ request }: { request: InteractionRecord['request'] }) {
  if (request.kind === 'permission') return <span className="answer-detail"> · {request.summary}</span>;
  if (request.kind === 'network') return <span className="answer-detail"> · network to {request.host}</span>;
  return null;
}

/** " from Pixel 9" when a paired device answered; nothing for the desktop (or a record from before devices). */
function AnsweredFrom({ record }: { record: InteractionRecord }) {
  if (record.answeredFrom === undefined) return null;
  return <span data-testid="answered-from"> from {record.answeredFrom}</span>;
}

function closedText(reason: InteractionRecord['closeReason']): string {
  switch (reason) {
    case 'turn_stopped':
      return 'Closed — the turn was stopped before you answered.';
    case 'session_archived':
      return 'Closed — the session was archived.';
    case 'superseded':
      return 'Set aside — you sent a new message instead of answering.';
    case 'expired':
      return 'Expired — the request behind this question ended before you answered (the host restarted, or the server gave up).';
    default:
      return 'Closed without an answer.';
  }
}

function QuestionRecord({
  request,
  answers,
}: {
  request: QuestionRequest;
  answers: Readonly<Record<string, QuestionAnswer>>;
}) {
  return (
    <dl className="answer-record" data-testid="answer-record">
      {request.questions.map((question) => {
        const answer = answers[question.id];
        const labels = (answer?.optionIds ?? []).map(
          (id) => question.options.find((option) => option.id === id)?.label ?? id,
        );
        const text = answer?.text;
        const parts = [
          ...labels,
          ...(text !== undefined && text !== '' ? [question.options.length > 0 ? `Other: ${text}` : text] : []),
        ];
        return (
          <div key={question.id} className="answer-pair">
            <dt>{question.header}</dt>
            <dd className={question.secret ? 'is-secret' : undefined}>{parts.length === 0 ? '—' : parts.join(', ')}</dd>
          </div>
        );
      })}
    </dl>
  );
}

function FormRecord({ request, values }: { request: FormRequest; values: Readonly<Record<string, FormValue>> }) {
  return (
    <dl className="answer-record" data-testid="answer-record">
      {request.fields.map((field) => {
        const value = values[field.id];
        return (
          <div key={field.id} className="answer-pair">
            <dt>{field.label}</dt>
            <dd>{formatValue(field, value)}</dd>
          </div>
        );
      })}
    </dl>
  );
}

function formatValue(field: FormRequest['fields'][number], value: FormValue | undefined): string {
  if (value === undefined || value === '') return '—';
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (field.type === 'single_select' && typeof value === 'string')
    return field.options.find((option) => option.value === value)?.label ?? value;
  if (field.type === 'multi_select' && Array.isArray(value)) {
    return value.length === 0
      ? '—'
      : value.map((item) => field.options.find((option) => option.value === item)?.label ?? item).join(', ');
  }
  return String(value);
}
