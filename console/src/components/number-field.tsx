import { useId, type ReactNode } from 'react';

/**
 * A labelled number input, with its hint under it. The form keeps its text, not a number,
 * so that a half-typed value stays as typed; `valid` is the form's check of that text
 * (aria-invalid when false). `step` defaults to 1: whole numbers.
 */
export function NumberField(props: {
  label: ReactNode;
  value: string;
  onChange: (text: string) => void;
  min: number;
  max?: number;
  step?: number;
  valid: boolean;
  hint?: ReactNode;
  /** A hint elsewhere (a group's) that describes this field. */
  describedBy?: string;
}) {
  const id = useId();
  const hintId = useId();
  return (
    <>
      <label htmlFor={id}>{props.label}</label>
      <input
        id={id}
        type="number"
        min={props.min}
        max={props.max}
        step={props.step ?? 1}
        value={props.value}
        onChange={(event) => props.onChange(event.target.value)}
        aria-describedby={props.hint ? hintId : props.describedBy}
        aria-invalid={props.valid ? undefined : true}
      />
      {props.hint && (
        <p id={hintId} className="hint">
          {props.hint}
        </p>
      )}
    </>
  );
}

/** Whether a field's text is a whole number from `min` to `max`. */
export function isWholeNumberIn(text: string, min: number, max: number): boolean {
  const value = Number(text);
  return text.trim() !== '' && Number.isInteger(value) && value >= min && value <= max;
}
