/** Who did something (an audit entry's actor, a key's or an invitation's maker): a key, a member, or the operator's key CLI. */
import type { Actor } from '@feedback-service/client';

export function ActorName(props: { actor: Actor | undefined }) {
  const { actor } = props;
  if (!actor) return <span className="muted">–</span>;
  if (actor.type === 'key') {
    return (
      <>
        {actor.label ?? <span className="muted">(no label)</span>} <code>{actor.keyId}</code>
      </>
    );
  }
  if (actor.type === 'person') {
    return (
      <>
        {actor.name ?? actor.email ?? <span className="muted">(a member)</span>} <code>{actor.memberId}</code>
      </>
    );
  }
  return <span className="muted">{actor.name} (operator)</span>;
}
