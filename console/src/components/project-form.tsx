import { useId, useState, type FormEvent } from 'react';
import type { Project } from '@feedback-service/client';
import { FormActions } from './dialog';

/** A project's name and description as typed, trimmed; an empty description is none. */
export interface ProjectFields {
  name: string;
  description: string;
}

/**
 * Name and description of a project, for creating and renaming one. The limits are those of
 * projects/create and projects/save (name 1 to 50 characters, description at most 255), so
 * the browser stops what the API would refuse; anything else it refuses shows as its message.
 */
export function ProjectForm(props: {
  initial?: Project;
  descriptionLabel: string;
  submitLabel: string;
  busy: boolean;
  error: Error | null;
  onSubmit: (fields: ProjectFields) => void;
  onCancel: () => void;
}) {
  const [name, setName] = useState(props.initial?.name ?? '');
  const [description, setDescription] = useState(props.initial?.metadata.description ?? '');
  const ids = { name: useId(), description: useId() };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    props.onSubmit({ name: name.trim(), description: description.trim() });
  };
  return (
    <form onSubmit={submit} className="form">
      <label htmlFor={ids.name}>Name</label>
      <input id={ids.name} value={name} onChange={(event) => setName(event.target.value)} maxLength={50} required />
      <label htmlFor={ids.description}>{props.descriptionLabel}</label>
      <input id={ids.description} value={description} onChange={(event) => setDescription(event.target.value)} maxLength={255} />
      <FormActions error={props.error} submitLabel={props.submitLabel} disabled={props.busy || name.trim() === ''} onCancel={props.onCancel} />
    </form>
  );
}
