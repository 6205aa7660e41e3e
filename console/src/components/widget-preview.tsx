/**
 * The live preview: the published @feelback/react widget of the set's schema, pointed at this
 * server. A click records a real response on the content item of the page's address: the
 * widget's default key, and the only one a React widget can use, since React keeps a `key`
 * prop to itself. Loaded lazily with the embed page, so the widget's code is not part of
 * the console's first load.
 */
import {
  FeelbackMessage,
  FeelbackProvider,
  FeelbackPulse,
  FeelbackReaction,
  FeelbackTaggedMessage,
  FeelbackYesNo,
  PRESET_EVALUATION,
  PRESET_FACEBOOK_EMOJI,
  PRESET_FEEDBACK,
  PRESET_FEELING,
  PRESET_GITHUB_EMOJI,
  PRESET_PULSE_HEART,
  PRESET_YESNO_LIKE_DISLIKE,
  type FeelbackValueDefinition,
} from '@feelback/react';
import type { ReactElement } from 'react';
import type { Schema, SchemaConfig } from '../../../shared/schema-options';
import type { ContentSet } from '@feedback-service/client';
import { reactionPreset, setOptions, usesFeedbackTags } from '../schemas';

const REACTION_PRESETS = { github: PRESET_GITHUB_EMOJI, facebook: PRESET_FACEBOOK_EMOJI, feeling: PRESET_FEELING, evaluation: PRESET_EVALUATION };

function textPreset(set: ContentSet, format: (value: string, label: string, emoji?: string) => string): FeelbackValueDefinition[] {
  return setOptions(set).map((option) => ({
    value: option.value,
    title: option.label,
    icon: { text: format(option.value, option.label, option.emoji) },
  }));
}

interface PreviewProps {
  set: ContentSet;
  target: { contentSetId: string };
  showCount: boolean | undefined;
}

/**
 * The published widget of each schema: a record over every schema, so a new schema without
 * its preview does not compile. It lives here rather than in schemas/ because the widgets'
 * code loads lazily with the embed page.
 */
const SCHEMA_PREVIEWS: { [S in Schema]: (props: PreviewProps) => ReactElement } = {
  pulse: ({ target, showCount }) => <FeelbackPulse {...target} preset={PRESET_PULSE_HEART} showCount={showCount} revokable={false} />,
  'yes-no': ({ target, showCount }) => (
    <FeelbackYesNo
      {...target}
      preset={PRESET_YESNO_LIKE_DISLIKE}
      textQuestion="Was this page helpful?"
      textAnswer="Thanks for your feedback"
      showCount={showCount}
      revokable={false}
    />
  ),
  reaction: ({ set, target, showCount }) => {
    const preset = reactionPreset(set.schemaConfig as SchemaConfig['reaction']);
    return (
      <FeelbackReaction
        {...target}
        preset={preset ? REACTION_PRESETS[preset] : textPreset(set, (_value, label, emoji) => emoji ?? label)}
        showCount={showCount}
        revokable={false}
      />
    );
  },
  rating: ({ set, target, showCount }) => (
    <FeelbackYesNo
      {...target}
      preset={textPreset(set, (value) => `${value} ★`)}
      textQuestion="How would you rate this page?"
      textAnswer="Thanks for your rating"
      showCount={showCount}
      revokable={false}
    />
  ),
  message: ({ target }) => (
    <FeelbackMessage {...target} layout="inline" title="Send us your feedback" textAnswer="Thanks for your feedback" revokable={false} />
  ),
  'tagged-message': ({ set, target }) => (
    <FeelbackTaggedMessage
      {...target}
      layout="inline"
      preset={
        usesFeedbackTags(set.schemaConfig as SchemaConfig['tagged-message']) ? PRESET_FEEDBACK : textPreset(set, (_value, label, emoji) => emoji ?? label)
      }
      textAnswer="Thanks for your feedback"
      revokable={false}
    />
  ),
};

function Widget(props: { set: ContentSet }) {
  const Preview = SCHEMA_PREVIEWS[props.set.schema];
  return <Preview set={props.set} target={{ contentSetId: props.set.id }} showCount={props.set.metadata.publicAggregates} />;
}

export default function WidgetPreview(props: { set: ContentSet; endpoint: string }) {
  return (
    <div className="widget-preview" data-testid="widget-preview">
      <FeelbackProvider endpoint={props.endpoint} store="none">
        <Widget set={props.set} />
      </FeelbackProvider>
    </div>
  );
}
