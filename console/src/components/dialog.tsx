import { useEffect, useId, useRef, type ReactNode } from 'react';
import { ChangeError } from './states';

/** A modal dialog (the native <dialog>: focus moves in, Escape closes, the page behind is inert). */
export function Dialog(props: { open: boolean; title: string; onClose: () => void; children: ReactNode }) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (props.open && !dialog.open) dialog.showModal();
    if (!props.open && dialog.open) dialog.close();
  }, [props.open]);
  return (
    <dialog ref={ref} aria-labelledby={titleId} onClose={props.onClose} className="dialog">
      {props.open && (
        <>
          <h2 id={titleId}>{props.title}</h2>
          {props.children}
        </>
      )}
    </dialog>
  );
}

/** A confirmation: what will happen in words, the refusal of the change if any, a cancel and a confirm button. */
export function ConfirmDialog(props: {
  open: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  busy?: boolean;
  danger?: boolean;
  error?: unknown;
  onConfirm: () => void;
  onClose: () => void;
}) {
  return (
    <Dialog open={props.open} title={props.title} onClose={props.onClose}>
      <div className="dialog-body">
        {props.children}
        <ChangeError error={props.error} />
      </div>
      <div className="dialog-actions">
        <button type="button" onClick={props.onClose} disabled={props.busy}>
          Cancel
        </button>
        <button type="button" className={props.danger ? 'danger' : 'primary'} onClick={props.onConfirm} disabled={props.busy}>
          {props.busy ? 'Working…' : props.confirmLabel}
        </button>
      </div>
    </Dialog>
  );
}

/** The end of a dialog's form: the API's refusal, if any, then Cancel and the submit button. */
export function FormActions(props: { error: unknown; submitLabel: string; disabled: boolean; onCancel: () => void }) {
  return (
    <>
      <ChangeError error={props.error} />
      <div className="dialog-actions">
        <button type="button" onClick={props.onCancel}>
          Cancel
        </button>
        <button type="submit" className="primary" disabled={props.disabled}>
          {props.submitLabel}
        </button>
      </div>
    </>
  );
}
