/**
 * Paths of console pages that the server links to too (the digest mail's rising themes) as
 * well as the console itself (the Why panel, Needs attention): one home, so a mail's link and
 * the console's own cannot drift apart.
 */

/** What the console's list of a theme's or phrase's messages shows. */
export interface MessagesSelection {
  setId: string;
  /** An item of the set: only its messages. */
  contentId?: string;
  theme?: string;
  phrase?: string;
  /** What the list is called ("code sample broken"). */
  label: string;
  tag?: string;
  /** The period, `from` inclusive and `to` exclusive, as ISO date-times. */
  from: string;
  to: string;
}

/** The console's page listing the messages of a theme or a phrase (`/sets/<id>/messages?...`). */
export function messagesPath(selection: MessagesSelection): string {
  const params = new URLSearchParams();
  if (selection.contentId) params.set('item', selection.contentId);
  if (selection.theme) params.set('theme', selection.theme);
  if (selection.phrase) params.set('phrase', selection.phrase);
  params.set('label', selection.label);
  if (selection.tag) params.set('tag', selection.tag);
  params.set('from', selection.from);
  params.set('to', selection.to);
  return `/sets/${encodeURIComponent(selection.setId)}/messages?${params.toString()}`;
}
