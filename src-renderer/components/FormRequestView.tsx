import type { FormField, FormRequest } from '../../src-shared/interaction-model';
import type { FieldDraft, FormDraft } from '../forms/interaction-draft';
import { draftProblems, fieldHint, initialFormDraft, problemsById } from '../forms/interaction-draft';
import { EMPTY_FORM } from '../state/interactions-slice';
import { useAppStore, useStoreApi } from '../state/store-context';
import { useFocusFirstInvalid } from '../hooks/use-focus-first-invalid';
import type { FieldAria } from './FieldFrame';
import { FieldFrame } from './FieldFrame';
import { InteractionActions } from './InteractionActions';

/** Single-select fields with more options than this become a drop-down instead of radios. */
const RADIOS_UP_TO = 5;

/** A form the agent asks to be filled in: one control per field, its limits and problems beside it. */
export function FormRequestView({ interactionId, request }: { interactionId: string; request: FormRequest }) {
  const store = useStoreApi();
  const form = useAppStore((state) => state.interactionForms[interactionId] ?? EMPTY_FORM);
  const draft = form.draft?.kind === 'form' ? form.draft : initialFormDraft(request);
  const problems = form.attempted ? problemsById(draftProblems(request, draft)) : new Map<string | null, string>();
  const setValue = (fieldId: string, value: FieldDraft) =>
    store
      .getState()
      .editAnswer(interactionId, { kind: 'form', values: { ...draft.values, [fieldId]: value } } satisfies FormDraft);

  const focus = useFocusFirstInvalid<HTMLFormElement>();

  return (
    <form
      ref={focus.ref}
      className="interaction-form"
      noValidate
      aria-label={request.title}
      onSubmit={(event) => {
        event.preventDefault();
        void store
          .getState()
          .answerFromDraft(interactionId)
          .then((sent) => (sent ? undefined : focus.refused()));
      }}
    >
      {request.description !== undefined ? <p className="form-description">{request.description}</p> : null}
      <p className="form-legend">
        <span className="required-marker" aria-hidden="true">
          *
        </span>{' '}
        marks a required field
      </p>
      <div className="form-fields">
        {request.fields.map((field) => (
          <FieldFrame
            key={field.id}
            controlId={`${interactionId}-${field.id}`}
            label={field.label}
            required={field.required}
            help={field.help ?? null}
            hint={fieldHint(field)}
            error={problems.get(field.id) ?? null}
            group={isGroup(field)}
            className={`form-field field-${field.type}${field.type === 'string' && field.format === 'multiline' ? ' is-wide' : ''}`}
          >
            {(aria) => (
              <FieldControl
                field={field}
                aria={aria}
                name={`${interactionId}-${field.id}`}
                value={draft.values[field.id]}
                disabled={form.submitting}
                onChange={(value) => setValue(field.id, value)}
              />
            )}
          </FieldFrame>
        ))}
      </div>
      <InteractionActions
        interactionId={interactionId}
        form={form}
        general={problems.get(null) ?? null}
        invalid={problems.size > 0}
        submitLabel="Submit"
        secondary={[
          {
            label: 'Dismiss',
            action: 'cancel',
            hint: 'Close the form without answering; the agent is told it was dismissed and carries on without it',
          },
          {
            label: 'Decline to fill in',
            action: 'decline',
            hint: 'Tell the agent you choose not to give this; it carries on without it',
          },
        ]}
      />
    </form>
  );
}

function isGroup(field: FormField): boolean {
  return field.type === 'multi_select' || (field.type === 'single_select' && field.options.length <= RADIOS_UP_TO);
}

interface ControlProps {
  readonly field: FormField;
  readonly aria: FieldAria;
  readonly name: string;
  readonly value: FieldDraft | undefined;
  readonly disabled: boolean;
  readonly onChange: (value: FieldDraft) => void;
}

const INPUT_TYPES = { plain: 'text', email: 'email', uri: 'url', date: 'date', 'date-time': 'datetime-local' } as const;

function FieldControl({ field, aria, name, value, disabled, onChange }: ControlProps) {
  switch (field.type) {
    case 'string': {
      const text = typeof value === 'string' ? value : '';
      if (field.format === 'multiline') {
        return (
          <textarea
            {...aria}
            className="input textarea"
            rows={3}
            value={text}
            disabled={disabled}
            onChange={(event) => onChange(event.target.value)}
          />
        );
      }
      const format = field.format ?? 'plain';
      return (
        <input
          {...aria}
          className="input"
          type={field.secret === true ? 'password' : INPUT_TYPES[format]}
          value={text}
          disabled={disabled}
          spellCheck={format === 'plain'}
          autoComplete={field.secret === true ? 'new-password' : format === 'email' ? 'email' : 'off'}
          placeholder={format === 'email' ? 'name@example.com' : format === 'uri' ? 'https://' : undefined}
          onChange={(event) => onChange(event.target.value)}
        />
      );
    }
    case 'number':
    case 'integer':
      return (
        <input
          {...aria}
          className="input input-number"
          type="text"
          inputMode={field.type === 'integer' ? 'numeric' : 'decimal'}
          autoComplete="off"
          value={typeof value === 'string' ? value : ''}
          disabled={disabled}
          onChange={(event) => onChange(event.target.value)}
        />
      );
    case 'boolean':
      return (
        <label className="switch">
          <input
            {...aria}
            type="checkbox"
            role="switch"
            checked={value === true}
            disabled={disabled}
            onChange={(event) => onChange(event.target.checked)}
          />
          <span className="switch-track" aria-hidden="true" />
          <span>{value === true ? 'Yes' : 'No'}</span>
        </label>
      );
    case 'single_select': {
      const chosen = typeof value === 'string' ? value : '';
      if (field.options.length > RADIOS_UP_TO) {
        return (
          <select
            {...aria}
            className="input select"
            value={chosen}
            disabled={disabled}
            onChange={(event) => onChange(event.target.value)}
          >
            <option value="">Choose…</option>
            {field.options.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
        );
      }
      return (
        <div className="choice-row">
          {field.options.map((option) => (
            <label
              key={option.value}
              className={`choice choice-compact${chosen === option.value ? ' is-checked' : ''}`}
            >
              <input
                type="radio"
                name={name}
                value={option.value}
                checked={chosen === option.value}
                disabled={disabled}
                onChange={() => onChange(option.value)}
              />
              <span className="choice-label">{option.label}</span>
            </label>
          ))}
        </div>
      );
    }
    case 'multi_select': {
      const chosen = Array.isArray(value) ? (value as readonly string[]) : [];
      return (
        <div className="choice-row">
          {field.options.map((option) => (
            <label
              key={option.value}
              className={`choice choice-compact${chosen.includes(option.value) ? ' is-checked' : ''}`}
            >
              <input
                type="checkbox"
                name={name}
                value={option.value}
                checked={chosen.includes(option.value)}
                disabled={disabled}
                onChange={(event) =>
                  onChange(
                    event.target.checked ? [...chosen, option.value] : chosen.filter((known) => known !== option.value),
                  )
                }
              />
              <span className="choice-label">{option.label}</span>
            </label>
          ))}
        </div>
      );
    }
  }
}
