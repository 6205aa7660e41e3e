/**
 * Copy-paste snippets for the published widgets, with this server's endpoint and the set's
 * id filled in, and the widget and preset that match the set's schema.
 */
import type { ContentSet } from '@feedback-service/client';
import { indentFollowingLines, snippetParts } from '../schemas';

export interface Snippets {
  react: string;
  astro: string;
  html: string;
  /** Said above the snippets (e.g. that no rating widget exists). */
  note?: string;
}

/**
 * Where a plain HTML page loads @feelback/js from: the jsDelivr CDN's copy of the npm package,
 * pinned to the version the widgets are tested against (the one installed here). Its
 * `dist/browser.js` is a self-contained ES module, so a page imports it with no bundler.
 */
export const FEELBACK_JS_VERSION = '0.3.4';
export const FEELBACK_JS_CDN = `https://cdn.jsdelivr.net/npm/@feelback/js@${FEELBACK_JS_VERSION}`;

export function snippetsFor(set: ContentSet, endpoint: string): Snippets {
  const { reactImports, reactElement, astroImport, astroElement, htmlBody, note } = snippetParts(set, set.metadata.publicAggregates ? ['showCount'] : []);
  const react = `// npm install @feelback/react
import { ${['FeelbackProvider', ...reactImports].join(', ')} } from "@feelback/react";
import "@feelback/react/styles/feelback.css";

export function Feedback() {
  return (
    <FeelbackProvider endpoint="${endpoint}">
      ${indentFollowingLines(reactElement, '      ')}
    </FeelbackProvider>
  );
}
`;
  const astro = `# .env (astro-feelback reads the endpoint from here)
PUBLIC_ENDPOINT=${endpoint}

---
// npm install astro-feelback
import ${astroImport} from "astro-feelback/components/${astroImport}.astro";
import "astro-feelback/styles/feelback.css";
---

${astroElement}
`;
  const html = `<!-- Paste into any page: no build step. The widget's script and styles come from
     the jsDelivr CDN (npm's @feelback/js); with a bundler, npm install @feelback/js and
     import setupFeelback from "@feelback/js/browser" instead. -->
<link rel="stylesheet" href="${FEELBACK_JS_CDN}/styles/feelback.css">

${htmlBody}

<script type="module">
  import { setupFeelback } from "${FEELBACK_JS_CDN}/dist/browser.js";
  setupFeelback({ endpoint: "${endpoint}" });
</script>
`;
  return { react, astro, html, note };
}
