/**
 * The console's naming of tags and its embed snippets, as plain functions: a tag reads the
 * same everywhere (its label and icon from schemaConfig), snippets indent their presets under
 * their element and keep lines short, and the plain HTML snippet needs no bundler.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ContentSet } from '@feedback-service/client';
import { FEELBACK_JS_CDN, FEELBACK_JS_VERSION, snippetsFor } from '../../console/src/lib/snippets';
import { optionText, setOptions, tagPreset } from '../../console/src/schemas';
import { REPO_ROOT } from '../../lib/paths';

const ENDPOINT = 'https://feedback.example.com/v0';

function contentSet(schema: ContentSet['schema'], schemaConfig: unknown, publicAggregates = false): ContentSet {
  return {
    id: 'Set-id_0123456789',
    accountId: 'account',
    projectId: 'project',
    key: 'feedback',
    name: 'Feedback',
    schema,
    schemaConfig,
    state: 'active',
    createdAt: '2026-11-25T00:00:00.000Z',
    updatedAt: '2026-11-25T00:00:00.000Z',
    metadata: { disallowAutoContentCreation: false, publicAggregates, revokeWindow: 3600, onePerVisitor: true, publicMinCount: 0 },
  } as ContentSet;
}

const NAMED_TAGS = contentSet('tagged-message', {
  tags: [
    { value: 'bug', sentiment: -1, label: 'Bug report', icon: '🐞' },
    { value: 'praise', sentiment: 1, label: 'Praise' },
    { value: 'question', sentiment: 0 },
  ],
});

describe('tag names', () => {
  it('come from schemaConfig: icon and label, else the label, else the value', () => {
    expect(setOptions(NAMED_TAGS).map(optionText)).toEqual(['🐞 Bug report', 'Praise', 'question']);
  });

  it('are the defaults for tags stored before labels existed (idea, error, other without label or icon)', () => {
    const legacy = contentSet('tagged-message', {
      tags: [
        { value: 'idea', sentiment: 0.5 },
        { value: 'error', sentiment: -1 },
        { value: 'other', sentiment: 0 },
      ],
    });
    expect(setOptions(legacy).map(optionText)).toEqual(['💡 Idea', '💥 Error', '💬 Other']);
    // A set that named its own `idea` tag keeps its own name.
    const renamed = contentSet('tagged-message', { tags: [{ value: 'idea', sentiment: 1, label: 'Suggestion' }] });
    expect(setOptions(renamed).map(optionText)).toEqual(['Suggestion']);
  });

  it('are the same in the widget preset (preview and snippets) as in the console', () => {
    expect(tagPreset(setOptions(NAMED_TAGS))).toEqual([
      { value: 'bug', title: 'Bug report', text: '🐞' },
      { value: 'praise', title: 'Praise', text: undefined },
      { value: 'question', title: 'question', text: undefined },
    ]);
    const { react, astro, html } = snippetsFor(NAMED_TAGS, ENDPOINT);
    expect(react).toContain('{ value: "bug", title: "Bug report", icon: { text: "🐞" } },');
    expect(react).toContain('showLabels');
    // astro-feelback's presets hold an icon as its markup, a string.
    expect(astro).toContain('{ value: "bug", title: "Bug report", icon: "🐞" },');
    expect(html).toContain(`
          <input id="feelback-tag-0" type="radio" name="tag" value="bug">
          <label for="feelback-tag-0">🐞 Bug report</label>`);
    expect(html).toContain('<label for="feelback-tag-2">question</label>');
  });
});

describe('snippets', () => {
  it('indent a preset array under its element, one attribute a line', () => {
    const { react, astro } = snippetsFor(contentSet('rating', { min: 1, max: 3, step: 1 }, true), ENDPOINT);
    expect(react).toContain(`    <FeelbackProvider endpoint="${ENDPOINT}">
      <FeelbackYesNo
        contentSetId="Set-id_0123456789"
        textQuestion="How would you rate this page?"
        preset={[
          { value: "1", title: "1 out of 3", icon: { text: "1 ★" } },
          { value: "2", title: "2 out of 3", icon: { text: "2 ★" } },
          { value: "3", title: "3 out of 3", icon: { text: "3 ★" } },
        ]}
        showCount
      />
    </FeelbackProvider>`);
    expect(astro).toContain(`
<FeelbackYesNo
  contentSetId="Set-id_0123456789"
  textQuestion="How would you rate this page?"
  showTitle
  preset={[
    { value: "1", title: "1 ★" },
    { value: "2", title: "2 ★" },
    { value: "3", title: "3 ★" },
  ]}
  showCount
/>
`);
  });

  it('keep a short element on one line', () => {
    expect(snippetsFor(contentSet('pulse', {}), ENDPOINT).astro).toContain('\n<FeelbackPulse contentSetId="Set-id_0123456789" preset="heart" />\n');
  });

  it('of every schema: the React and Astro code lines stay within 100 characters', () => {
    const sets = [
      contentSet('pulse', {}, true),
      contentSet('yes-no', {}, true),
      contentSet('reaction', { options: [{ value: 'up', sentiment: 1, intensity: 1 }] }, true),
      contentSet('rating', { min: 1, max: 10, step: 1 }, true),
      contentSet('message', {}),
      NAMED_TAGS,
    ];
    for (const set of sets) {
      const { react, astro } = snippetsFor(set, ENDPOINT);
      const long = `${react}\n${astro}`.split('\n').filter((line) => line.length > 100 && !line.includes(ENDPOINT));
      expect({ schema: set.schema, long }).toEqual({ schema: set.schema, long: [] });
    }
  });

  it('in plain HTML import only from URLs (no bundler), of the @feelback/js version installed here', () => {
    const { html } = snippetsFor(contentSet('yes-no', {}), ENDPOINT);
    const scripts = [...html.matchAll(/<script type="module">([\s\S]*?)<\/script>/g)].map((match) => match[1]);
    expect(scripts).toHaveLength(1);
    const imports = [...scripts[0].matchAll(/from\s+"([^"]+)"/g)].map((match) => match[1]);
    expect(imports).toEqual([`${FEELBACK_JS_CDN}/dist/browser.js`]);
    expect(html).toContain(`<link rel="stylesheet" href="${FEELBACK_JS_CDN}/styles/feelback.css">`);
    expect(html).toContain(`setupFeelback({ endpoint: "${ENDPOINT}" });`);
    const installed = JSON.parse(readFileSync(join(REPO_ROOT, 'node_modules/@feelback/js/package.json'), 'utf8')).version;
    expect(FEELBACK_JS_VERSION).toBe(installed);
    // The file the snippet imports is an ES module of its own: no import of another module.
    const browserModule = readFileSync(join(REPO_ROOT, 'node_modules/@feelback/js/dist/browser.js'), 'utf8');
    expect(browserModule).not.toMatch(/\bimport\s*[{*"'\w]/);
    expect(browserModule).toMatch(/export\s*\{[^}]*\bas setupFeelback\b/);
  });
});
