import type { Question, QuestionRequest } from '../../src-shared/interaction-model';
import type { QuestionDraft } from '../forms/interaction-draft';
import {
  choiceOf,
  draftProblems,
  initialQuestionDraft,
  problemsById,
  setOther,
  setText,
  toggleOption,
} from '../forms/interaction-draft';
import { EMPTY_FORM } from '../state/interactions-slice';
import { useAppStore, useStoreApi } from '../state/store-context';
import { useFocusFirstInvalid } from '../hooks/use-focus-first-invalid';
import { InteractionActions } from './InteractionActions';

/** The agent's questions as a form: options as radios or checkboxes, "Other" with its text, free text (masked when secret). */
export function QuestionForm({ interactionId, request }: { interactionId: string; request: QuestionRequest }) {
  const store = useStoreApi();
  const form = useAppStore((state) => state.interactionForms[interactionId] ?? EMPTY_FORM);
  const draft = form.draft?.kind === 'question' ? form.draft : initialQuestionDraft();
  const problems = form.attempted ? problemsById(draftProblems(request, draft)) : new Map<string | null, string>();
  const edit = (next: QuestionDraft) => store.getState().editAnswer(interactionId, next);

  const focus = useFocusFirstInvalid<HTMLFormElement>();

  return (
    <form
      ref={focus.ref}
      className="interaction-form"
      noValidate
      aria-label="Your answers"
      onSubmit={(event) => {
        event.preventDefault();
        void store
          .getState()
          .answerFromDraft(interactionId)
          .then((sent) => (sent ? undefined : focus.refused()));
      }}
    >
      {request.questions.map((question) => (
        <QuestionField
          key={question.id}
          interactionId={interactionId}
          question={question}
          draft={draft}
          problem={problems.get(question.id) ?? null}
          disabled={form.submitting}
          onChange={edit}
        />
      ))}
      <InteractionActions
        form={form}
        general={problems.get(null) ?? null}
        invalid={problems.size > 0}
        submitLabel="Submit"
        secondary={[
          {
            label: 'Skip',
            action: 'decline',
            hint: 'Tell the agent you would rather not answer; it carries on without it',
          },
        ]}
        interactionId={interactionId}
      />
    </form>
  );
}

interface QuestionFieldProps {
  readonly interactionId: string;
  readonly question: Question;
  readonly draft: QuestionDraft;
  readonly problem: string | null;
  readonly disabled: boolean;
  readonly onChange: (draft: QuestionDraft) => void;
}

function QuestionField({ interactionId, question, draft, problem, disabled, onChange }: QuestionFieldProps) {
  const base = `${interactionId}-${question.id}`;
  const choice = choiceOf(draft, question.id);
  const errorId = `${base}-error`;
  const textType = question.secret ? 'password' : 'text';

  const heading = (
    <>
      <span className="question-header">{question.header}</span>
      <span className="question-prompt">{question.prompt}</span>
    </>
  );
  const error =
    problem === null ? null : (
      <p id={errorId} className="field-error" data-testid="field-error" data-field={question.id}>
        {problem}
      </p>
    );

  if (question.options.length === 0) {
    return (
      <div className={`question${problem === null ? '' : ' has-error'}`} data-question-id={question.id}>
        <label htmlFor={`${base}-text`} className="question-legend">
          {heading}
        </label>
        <input
          id={`${base}-text`}
          className="input"
          type={textType}
          autoComplete={question.secret ? 'off' : undefined}
          spellCheck={!question.secret}
          value={choice.text}
          disabled={disabled}
          aria-invalid={problem === null ? undefined : true}
          aria-describedby={problem === null ? undefined : errorId}
          placeholder={question.secret ? 'Hidden as you type' : 'Your answer'}
          onChange={(event) => onChange(setText(draft, question, event.target.value))}
        />
        {question.secret ? <p className="field-help">Kept out of the transcript; the agent receives it once.</p> : null}
        {error}
      </div>
    );
  }

  const kind = question.multiple ? 'checkbox' : 'radio';
  return (
    <fieldset
      className={`question${problem === null ? '' : ' has-error'}`}
      data-question-id={question.id}
      aria-describedby={problem === null ? undefined : errorId}
      aria-invalid={problem === null ? undefined : true}
      disabled={disabled}
    >
      <legend className="question-legend">
        {heading}
        {question.multiple ? <span className="question-note">Choose any</span> : null}
      </legend>
      <div className="choice-list">
        {question.options.map((option) => (
          <label key={option.id} className={`choice${choice.optionIds.includes(option.id) ? ' is-checked' : ''}`}>
            <input
              type={kind}
              name={base}
              value={option.id}
              checked={choice.optionIds.includes(option.id)}
              onChange={() => onChange(toggleOption(draft, question, option.id))}
            />
            <span className="choice-text">
              <span className="choice-label">{option.label}</span>
              {option.description !== undefined ? (
                <span className="choice-description">{option.description}</span>
              ) : null}
            </span>
          </label>
        ))}
        {question.allowOther ? (
          <div className={`choice choice-other${choice.other ? ' is-checked' : ''}`}>
            <input
              id={`${base}-other`}
              type={kind}
              name={base}
              value="__other"
              checked={choice.other}
              onChange={(event) => onChange(setOther(draft, question, question.multiple ? event.target.checked : true))}
            />
            <label htmlFor={`${base}-other`} className="choice-label">
              Other
            </label>
            <input
              className="input input-inline"
              type={textType}
              aria-label={`Other answer for ${question.header}`}
              placeholder="Type your own answer"
              value={choice.text}
              onChange={(event) => onChange(setText(draft, question, event.target.value))}
            />
          </div>
        ) : null}
      </div>
      {error}
    </fieldset>
  );
}
