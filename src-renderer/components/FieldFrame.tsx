import type { InputHTMLAttributes, ReactNode, Ref } from 'react';

/** What a control inside a field frame needs for assistive technology: its id and the texts that describe it. */
export interface FieldAria {
  readonly id: string;
  readonly 'aria-describedby'?: string;
  readonly 'aria-invalid'?: true;
  readonly 'aria-required'?: true;
}

export interface FieldFrameProps {
  /** The control's id; the label, help, hint and error ids derive from it. */
  readonly controlId: string;
  readonly label: ReactNode;
  readonly required?: boolean;
  readonly help?: string | null;
  readonly hint?: string | null;
  readonly error?: string | null;
  /** A group of radios or checkboxes: a fieldset with a legend instead of a label. */
  readonly group?: boolean;
  readonly className?: string;
  readonly children: (aria: FieldAria) => ReactNode;
}

/**
 * One form field: its label (with a required marker), the control, help and limits under it, and its
 * problem next to it — wired with aria-describedby and aria-invalid, so a screen reader hears them.
 */
export function FieldFrame({
  controlId,
  label,
  required = false,
  help,
  hint,
  error,
  group = false,
  className,
  children,
}: FieldFrameProps) {
  const helpId = help ? `${controlId}-help` : null;
  const hintId = hint ? `${controlId}-hint` : null;
  const errorId = error ? `${controlId}-error` : null;
  const describedBy = [errorId, helpId, hintId].filter((id) => id !== null).join(' ');
  const aria: FieldAria = {
    id: controlId,
    ...(describedBy === '' ? {} : { 'aria-describedby': describedBy }),
    ...(errorId === null ? {} : { 'aria-invalid': true as const }),
    ...(required ? { 'aria-required': true as const } : {}),
  };
  const marker = required ? (
    <span className="required-marker" aria-hidden="true">
      *
    </span>
  ) : null;
  const notes = (
    <>
      {error ? (
        <p id={errorId ?? undefined} className="field-error" data-testid="field-error" data-field={controlId}>
          {error}
        </p>
      ) : null}
      {help ? (
        <p id={helpId ?? undefined} className="field-help">
          {help}
        </p>
      ) : null}
      {hint ? (
        <p id={hintId ?? undefined} className="field-hint">
          {hint}
        </p>
      ) : null}
    </>
  );
  const classes = `field${error ? ' has-error' : ''}${className === undefined ? '' : ` ${className}`}`;

  if (group) {
    return (
      <fieldset
        className={classes}
        aria-describedby={aria['aria-describedby']}
        aria-invalid={aria['aria-invalid']}
        aria-required={aria['aria-required']}
      >
        <legend className="field-label">
          {label}
          {marker}
        </legend>
        {children({ id: controlId })}
        {notes}
      </fieldset>
    );
  }
  return (
    <div className={classes}>
      <label className="field-label" htmlFor={controlId}>
        {label}
        {marker}
      </label>
      {children(aria)}
      {notes}
    </div>
  );
}

/** What a text field's control may say beyond its value: the input's kind and its typing hints. */
type TextControlProps = Pick<
  InputHTMLAttributes<HTMLInputElement>,
  'type' | 'inputMode' | 'placeholder' | 'autoComplete' | 'spellCheck' | 'maxLength' | 'min' | 'max' | 'step'
>;

interface TextFieldProps extends Omit<FieldFrameProps, 'group' | 'children'>, TextControlProps {
  readonly value: string;
  onChange(value: string): void;
  onBlur?(): void;
  /** A textarea of this many lines; without it, a one-line input. */
  readonly rows?: number;
  /** The control's class (`input`, or `input textarea` for a textarea, unless said). */
  readonly controlClassName?: string;
  readonly controlRef?: Ref<HTMLInputElement & HTMLTextAreaElement>;
}

/** A field whose control is a text input or a textarea: the frame above, with the control's value wired. */
export function TextField({
  value,
  onChange,
  onBlur,
  rows,
  controlClassName = rows === undefined ? 'input' : 'input textarea',
  controlRef,
  type,
  inputMode,
  placeholder,
  autoComplete,
  spellCheck,
  maxLength,
  min,
  max,
  step,
  ...frame
}: TextFieldProps) {
  return (
    <FieldFrame {...frame}>
      {(aria) =>
        rows === undefined ? (
          <input
            {...aria}
            ref={controlRef}
            className={controlClassName}
            type={type}
            inputMode={inputMode}
            placeholder={placeholder}
            autoComplete={autoComplete}
            spellCheck={spellCheck}
            maxLength={maxLength}
            min={min}
            max={max}
            step={step}
            value={value}
            onChange={(event) => onChange(event.target.value)}
            onBlur={onBlur}
          />
        ) : (
          <textarea
            {...aria}
            ref={controlRef}
            className={controlClassName}
            rows={rows}
            placeholder={placeholder}
            autoComplete={autoComplete}
            spellCheck={spellCheck}
            maxLength={maxLength}
            value={value}
            onChange={(event) => onChange(event.target.value)}
            onBlur={onBlur}
          />
        )
      }
    </FieldFrame>
  );
}
