import { useEffect, useId, useState } from 'react';
import { formatDay, parseDay } from '../lib/format';

/**
 * A date filter written as the console writes dates ("24 Nov 2026"), rather than the
 * browser's date picker, whose format follows the browser's locale (mm/dd/yyyy in en-US)
 * and would read differently from every date shown beside it. `value` is `YYYY-MM-DD` or ''.
 * Empty, it says "any day": a sample date there would read like a filter already set.
 */
export function DateField(props: { id: string; label: string; value: string; onChange: (day: string) => void }) {
  const [text, setText] = useState(props.value ? formatDay(props.value) : '');
  const [invalid, setInvalid] = useState(false);
  const hintId = useId();
  useEffect(() => {
    setText(props.value ? formatDay(props.value) : '');
    setInvalid(false);
  }, [props.value]);
  const commit = () => {
    if (text.trim() === '') {
      setInvalid(false);
      if (props.value !== '') props.onChange('');
      return;
    }
    const day = parseDay(text);
    setInvalid(day === undefined);
    if (day === undefined) return;
    setText(formatDay(day));
    if (day !== props.value) props.onChange(day);
  };
  return (
    <div className="field">
      <label htmlFor={props.id}>{props.label}</label>
      <input
        id={props.id}
        type="text"
        inputMode="text"
        autoComplete="off"
        placeholder="any day"
        size={11}
        value={text}
        aria-invalid={invalid || undefined}
        aria-describedby={invalid ? hintId : undefined}
        onChange={(event) => setText(event.target.value)}
        onBlur={commit}
        onKeyDown={(event) => {
          if (event.key === 'Enter') commit();
        }}
      />
      {invalid && (
        <span id={hintId} className="field-error">
          Write a day as 24 Nov 2026.
        </span>
      )}
    </div>
  );
}
