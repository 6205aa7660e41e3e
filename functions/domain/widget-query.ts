/**
 * The one JSON text the published widgets put, unencoded, into `?$p=` when they read
 * counts by key: `JSON.stringify([{ contentSetId, key }])`, no spaces, in this order.
 * The key is `location.href`, which never holds a literal `"` (browsers serialize it as
 * `%22`) nor a control character; so, once API Gateway has decoded the query, every `"`
 * or control character between `"key":"` and the closing `"}]` came from an escape of
 * the page URL (`%22`, `%0A`, …), which ends the JSON string early or makes it invalid.
 */
const WIDGET_TARGET = /^\[\{"contentSetId":"([^"\\]*)","key":"(.*)"\}\]$/s;

/**
 * The widgets' target restored from a decoded `$p` that is not valid JSON, as JSON text,
 * or undefined when the text is not that shape or cannot be restored unambiguously.
 *
 * The key is then the text between `"key":"` and the final `"}]` as it stands: that is
 * exactly the decoded form of the page URL (what its alias is stored under), provided the
 * text holds no backslash. A backslash is either a literal one of the URL, which JSON wrote
 * as `\\`, or a decoded `%5C`, which did not get that doubling; both look the same here,
 * so such keys are left alone (the request stays a bad-request, or reads another key when
 * the decoded `\` happens to form a valid JSON escape).
 *
 * Only called for text that is not valid JSON: a caller that encoded `$p` always sends
 * valid JSON and is read exactly as sent.
 */
export function restoreWidgetTarget(text: string): string | undefined {
  const match = WIDGET_TARGET.exec(text);
  if (!match || match[2].includes('\\')) return undefined;
  return JSON.stringify([{ contentSetId: match[1], key: match[2] }]);
}
