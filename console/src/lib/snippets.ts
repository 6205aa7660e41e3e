/**
 * Copy-paste snippets for the published widgets, with this server's endpoint and the set's
 * id filled in, and the widget and preset that match the set's schema.
 */
import type { ContentSet } from '@feedback-service/client';
import { snippetParts } from '../schemas';

export interface Snippets {
  react: string;
  astro: string;
  html: string;
  /** Said above the snippets (e.g. that no rating widget exists). */
  note?: string;
}

export function snippetsFor(set: ContentSet, endpoint: string): Snippets {
  const { reactImports, reactElement, astroImport, astroElement, htmlBody, note } = snippetParts(set, set.metadata.publicAggregates ? ' showCount' : '');
  const react = `// npm install @feelback/react
import { ${['FeelbackProvider', ...reactImports].join(', ')} } from "@feelback/react";
import "@feelback/react/styles/feelback.css";

export function Feedback() {
  return (
    <FeelbackProvider endpoint="${endpoint}">
      ${reactElement}
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
  const html = `<!-- npm install @feelback/js; bundle the script, and add @feelback/js/styles/feelback.css -->
${htmlBody}

<script type="module">
  import { setupFeelback } from "@feelback/js/browser";
  setupFeelback({ endpoint: "${endpoint}" });
</script>
`;
  return { react, astro, html, note };
}
