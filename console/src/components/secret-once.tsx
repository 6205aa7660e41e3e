import { useId } from 'react';
import { CopyButton } from './copy-button';

export interface SecretWording {
  /** Why it is shown now and what to do with it. */
  explanation: string;
  label: string;
  /** Names it in the copy button's accessible name: "Copy <what>". */
  what: string;
  testId: string;
}

/** A secret the API answers only once (an API key, a webhook's signing secret): the value to select or copy, then Done. */
export function SecretOnce(props: SecretWording & { secret: string; onDone: () => void }) {
  const id = useId();
  return (
    <div className="form">
      <p>{props.explanation}</p>
      <label htmlFor={id}>{props.label}</label>
      <input id={id} className="secret" readOnly value={props.secret} onFocus={(event) => event.target.select()} data-testid={props.testId} />
      <CopyButton text={props.secret} what={props.what} />
      <div className="dialog-actions">
        <button type="button" className="primary" onClick={props.onDone}>
          Done
        </button>
      </div>
    </div>
  );
}
