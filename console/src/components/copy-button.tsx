import { useState } from 'react';

/** Copies a text to the clipboard and says so. */
export function CopyButton(props: { text: string; label?: string; what?: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(props.text);
      setState('copied');
    } catch {
      setState('failed');
    }
    setTimeout(() => setState('idle'), 2500);
  };
  return (
    <span className="copy">
      <button type="button" onClick={copy} aria-label={props.what ? `Copy ${props.what}` : undefined}>
        {props.label ?? 'Copy'}
      </button>
      <span role="status" className="copy-status">
        {state === 'copied' ? 'Copied' : state === 'failed' ? 'Copy failed: select the text and copy it' : ''}
      </span>
    </span>
  );
}
