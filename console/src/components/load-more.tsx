/**
 * The button under a paged list, shown while more remain. With read-on (lib/read-on.ts) it
 * is busy while the list reads on by itself, and offers to keep searching once it paused.
 */
export function LoadMore(props: {
  /** More rows remain (the query has a next page). */
  hasMore: boolean;
  onMore: () => void;
  /** Loading: the button is disabled and says so. */
  busy?: boolean;
  /** Read-on stopped short of a page's worth: the button keeps searching. */
  paused?: boolean;
}) {
  if (!props.hasMore) return null;
  return (
    <button type="button" className="load-more" onClick={props.onMore} disabled={props.busy}>
      {props.busy ? 'Loading…' : props.paused ? 'Keep searching' : 'Load more'}
    </button>
  );
}
