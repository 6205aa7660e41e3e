/**
 * Copy-paste snippets for the published widgets, with this server's endpoint and the set's
 * id filled in, and the widget and preset that match the set's schema.
 */
import type { SchemaConfig } from '../../../shared/schema-options';
import type { ContentSet } from '@feedback-service/client';
import { optionsOf, reactionPreset, usesFeedbackTags } from './options';

export interface Snippets {
  react: string;
  astro: string;
  html: string;
  /** Said above the snippets (e.g. that no rating widget exists). */
  note?: string;
}

const REACT_REACTION_PRESETS = {
  github: 'PRESET_GITHUB_EMOJI',
  facebook: 'PRESET_FACEBOOK_EMOJI',
  feeling: 'PRESET_FEELING',
  evaluation: 'PRESET_EVALUATION',
} as const;

function valuesLiteral(values: { value: string; title: string; text?: string }[], indent: string): string {
  return `[\n${values.map((value) => `${indent}  { value: ${JSON.stringify(value.value)}, title: ${JSON.stringify(value.title)}${value.text ? `, icon: { text: ${JSON.stringify(value.text)} }` : ''} },`).join('\n')}\n${indent}]`;
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

export function snippetsFor(set: ContentSet, endpoint: string): Snippets {
  const id = set.id;
  const count = set.metadata.publicAggregates ? ' showCount' : '';
  const options = optionsOf(set.schema, set.schemaConfig);
  const reactImports = ['FeelbackProvider'];
  let reactElement: string;
  let astroImport: string;
  let astroElement: string;
  let htmlBody: string;
  let note: string | undefined;
  const buttons = (values: { value: string; label: string; emoji?: string }[]) =>
    `  <div class="feelback-buttons">\n${values
      .map(
        (option) =>
          `    <button class="feelback-btn" data-feelback-value="${escapeHtml(option.value)}" title="${escapeHtml(option.label)}">${escapeHtml(option.emoji ?? option.label)}</button>`,
      )
      .join('\n')}\n  </div>`;
  switch (set.schema) {
    case 'pulse':
      reactImports.push('FeelbackPulse', 'PRESET_PULSE_HEART');
      reactElement = `<FeelbackPulse contentSetId="${id}" preset={PRESET_PULSE_HEART}${count} />`;
      astroImport = 'FeelbackPulse';
      astroElement = `<FeelbackPulse contentSetId="${id}" preset="heart"${count} />`;
      htmlBody = `<div class="feelback-container" data-feelback-set="${id}">\n${buttons([{ value: '+', label: 'Love', emoji: '❤️' }])}\n</div>`;
      break;
    case 'yes-no':
      reactImports.push('FeelbackYesNo', 'PRESET_YESNO_LIKE_DISLIKE');
      reactElement = `<FeelbackYesNo contentSetId="${id}" preset={PRESET_YESNO_LIKE_DISLIKE} textQuestion="Was this page helpful?" textAnswer="Thanks for your feedback"${count} />`;
      astroImport = 'FeelbackYesNo';
      astroElement = `<FeelbackYesNo contentSetId="${id}" preset="check" textQuestion="Was this page helpful?"${count} />`;
      htmlBody = `<div class="feelback-container" data-feelback-set="${id}">\n  <span class="feelback-text">Was this page helpful?</span>\n${buttons(options)}\n</div>`;
      break;
    case 'reaction': {
      const preset = reactionPreset(set.schemaConfig as SchemaConfig['reaction']);
      astroImport = 'FeelbackReaction';
      if (preset) {
        reactImports.push('FeelbackReaction', REACT_REACTION_PRESETS[preset]);
        reactElement = `<FeelbackReaction contentSetId="${id}" preset={${REACT_REACTION_PRESETS[preset]}}${count} />`;
        astroElement = `<FeelbackReaction contentSetId="${id}" preset="${preset}"${count} />`;
      } else {
        reactImports.push('FeelbackReaction');
        const literal = valuesLiteral(
          options.map((option) => ({ value: option.value, title: option.label, text: option.emoji ?? option.label })),
          '',
        );
        reactElement = `<FeelbackReaction contentSetId="${id}" preset={${literal}}${count} />`;
        astroElement = `<FeelbackReaction contentSetId="${id}" preset={${literal}}${count} />`;
      }
      htmlBody = `<div class="feelback-container feelback-reaction" data-feelback-set="${id}">\n${buttons(options)}\n</div>`;
      break;
    }
    case 'rating': {
      note =
        'The published widgets have no rating component: a button list with one button per rating value (the yes-no widget with your own preset) records ratings.';
      const literal = valuesLiteral(
        options.map((option) => ({ value: option.value, title: `${option.value} out of ${options.at(-1)!.value}`, text: `${option.value} ★` })),
        '',
      );
      reactImports.push('FeelbackYesNo');
      reactElement = `<FeelbackYesNo contentSetId="${id}" textQuestion="How would you rate this page?" preset={${literal}}${count} />`;
      astroImport = 'FeelbackYesNo';
      astroElement = `<FeelbackYesNo contentSetId="${id}" textQuestion="How would you rate this page?" showTitle preset={${valuesLiteral(
        options.map((option) => ({ value: option.value, title: `${option.value} ★` })),
        '',
      )}}${count} />`;
      htmlBody = `<div class="feelback-container" data-feelback-set="${id}">\n  <span class="feelback-text">How would you rate this page?</span>\n${buttons(options.map((option) => ({ value: option.value, label: option.label })))}\n</div>`;
      break;
    }
    case 'message':
      reactImports.push('FeelbackMessage');
      reactElement = `<FeelbackMessage contentSetId="${id}" layout="inline" title="Send us your feedback" withEmail="optional" />`;
      astroImport = 'FeelbackMessage';
      astroElement = `<FeelbackMessage contentSetId="${id}" layout="inline" withEmail="optional" />`;
      htmlBody = `<div class="feelback-container" data-feelback-set="${id}" data-feelback-component="form">\n  <form class="feelback-form" data-feelback-type="form-single">\n    <label for="feelback-message">Your feedback</label>\n    <textarea id="feelback-message" data-feelback-field="message" required></textarea>\n    <button type="submit" class="feelback-btn">Send</button>\n  </form>\n</div>`;
      break;
    case 'tagged-message': {
      const standard = usesFeedbackTags(set.schemaConfig as SchemaConfig['tagged-message']);
      const literal = valuesLiteral(
        options.map((option) => ({ value: option.value, title: option.label, text: option.emoji })),
        '',
      );
      if (standard) reactImports.push('FeelbackTaggedMessage', 'PRESET_FEEDBACK');
      else reactImports.push('FeelbackTaggedMessage');
      reactElement = `<FeelbackTaggedMessage contentSetId="${id}" layout="inline" preset={${standard ? 'PRESET_FEEDBACK' : literal}} withEmail="optional" />`;
      astroImport = 'FeelbackTaggedMessage';
      astroElement = `<FeelbackTaggedMessage contentSetId="${id}" layout="inline" preset=${standard ? '"feedback"' : `{${literal}}`} withEmail="optional" />`;
      htmlBody = `<div class="feelback-container" data-feelback-set="${id}" data-feelback-component="form">\n  <form class="feelback-form">\n    <fieldset class="feelback-radio-group" data-feelback-field="tag" data-required>\n      <legend>What is it about?</legend>\n${options
        .map(
          (option) =>
            `      <label><input type="radio" name="tag" value="${escapeHtml(option.value)}"> ${escapeHtml(option.emoji ? `${option.emoji} ${option.label}` : option.label)}</label>`,
        )
        .join(
          '\n',
        )}\n    </fieldset>\n    <label for="feelback-message">Message</label>\n    <textarea id="feelback-message" data-feelback-field="message"></textarea>\n    <button type="submit" class="feelback-btn">Send</button>\n  </form>\n</div>`;
      break;
    }
  }
  const react = `// npm install @feelback/react
import { ${reactImports.join(', ')} } from "@feelback/react";
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
