/**
 * Percent-escapes in content keys, as the published widgets' GET loses them.
 *
 * The widgets build `GET …/getAggregates?$p=[{"contentSetId":…,"key":<location.href>}]`
 * without encoding the JSON. The browser only escapes what a query cannot hold (`"`, space,
 * `<`, `>`, …), so the `%C3%A9` or `%20` that `location.href` already carries reaches API
 * Gateway as written, and API Gateway (like the local server, which builds the same event)
 * hands the handler the query parameters percent-decoded: the key read is
 * `decodeAsApiGateway(key)`, not the key the widget's POST stored. Neither side can tell
 * from the decoded text whether the caller encoded it, so the store keeps, next to each
 * key with escapes, an alias under its decoded form (operations/content-keys.ts).
 */

const ESCAPE_RUN = /(?:%[0-9A-Fa-f]{2})+/g;

/** The longest UTF-8 sequence, in bytes (so in `%XX` escapes). */
const MAX_UTF8_BYTES = 4;

/**
 * Decodes one run of consecutive `%XX` escapes. A valid run decodes like
 * decodeURIComponent; in an invalid one (a stray continuation byte, a truncated or
 * overlong sequence, `%FF`), every escape that does not start a valid UTF-8 sequence is
 * kept as written and the rest is still decoded.
 */
function decodeRun(run: string): string {
  const decoded = tryDecode(run);
  if (decoded !== undefined) return decoded;
  const escapes = run.match(/%[0-9A-Fa-f]{2}/g)!;
  let text = '';
  for (let index = 0; index < escapes.length; ) {
    // The shortest slice that decodes is the sequence starting here: a shorter one is
    // truncated, and one that starts with an invalid byte never decodes whatever follows.
    let length = 1;
    let sequence: string | undefined;
    for (; length <= MAX_UTF8_BYTES && index + length <= escapes.length; length++) {
      sequence = tryDecode(escapes.slice(index, index + length).join(''));
      if (sequence !== undefined) break;
    }
    if (sequence === undefined) {
      text += escapes[index];
      index += 1;
    } else {
      text += sequence;
      index += length;
    }
  }
  return text;
}

function tryDecode(escapes: string): string | undefined {
  try {
    return decodeURIComponent(escapes);
  } catch {
    return undefined;
  }
}

/**
 * A text as API Gateway's REST proxy hands over a query parameter: every `%XX` decoded once
 * (UTF-8, like decodeURIComponent), `+` kept as `+` (no form decoding), and escapes that
 * are not valid UTF-8 or not `%` plus two hex digits left as written. (A widget's GET with
 * such an escape fails anyway: the local server then hands `$p` over undecoded, and API
 * Gateway is reported to answer 400; so how those are decoded only decides which alias
 * such a key gets.)
 */
export function decodeAsApiGateway(text: string): string {
  return text.includes('%') ? text.replace(ESCAPE_RUN, decodeRun) : text;
}

/** Whether a widget's GET reads this key as another text: it holds at least one decodable escape. */
export function hasPercentEscapes(key: string): boolean {
  return decodeAsApiGateway(key) !== key;
}
