/**
 * The live preview: the published @feelback/react widget of the set's schema, pointed at this
 * server, on the content item of the page's address (the widget's default key, and the only
 * one a React widget can use, since React keeps a `key` prop to itself). A click records a
 * real response; the preview then takes it back at once with the revoke token the widget
 * received (the widget's own `useRemoveFeelback`, `responses/remove`) and has the embed page
 * erase it (`erase`, admins only), so the set's and the project's statistics, rankings,
 * lists and exports stay as they were, and "Try again" sets the widget up afresh. Loaded lazily with the embed page, so the widget's code is not part of
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
  PRESET_FEELING,
  PRESET_GITHUB_EMOJI,
  PRESET_PULSE_HEART,
  PRESET_YESNO_LIKE_DISLIKE,
  type FeelbackValueDefinition,
  useLocalFeelback,
  useRemoveFeelback,
} from '@feelback/react';
import { type ReactElement, type ReactNode, useEffect, useReducer, useRef, useState } from 'react';
import type { Schema, SchemaConfig } from '../../../shared/schema-options';
import type { ContentSet } from '@feedback-service/client';
import { reactionPreset, setOptions, tagPreset } from '../schemas';

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
  pulse: ({ target, showCount }) => <FeelbackPulse {...target} preset={PRESET_PULSE_HEART} showCount={showCount} />,
  'yes-no': ({ target, showCount }) => (
    <FeelbackYesNo
      {...target}
      preset={PRESET_YESNO_LIKE_DISLIKE}
      textQuestion="Was this page helpful?"
      textAnswer="Thanks for your feedback"
      showCount={showCount}
    />
  ),
  reaction: ({ set, target, showCount }) => {
    const preset = reactionPreset(set.schemaConfig as SchemaConfig['reaction']);
    return (
      <FeelbackReaction
        {...target}
        preset={preset ? REACTION_PRESETS[preset] : textPreset(set, (_value, label, emoji) => emoji ?? label)}
        showCount={showCount}
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
    />
  ),
  message: ({ target }) => <FeelbackMessage {...target} layout="inline" title="Send us your feedback" textAnswer="Thanks for your feedback" />,
  'tagged-message': ({ set, target }) => (
    <FeelbackTaggedMessage
      {...target}
      layout="inline"
      preset={tagPreset(setOptions(set)).map(({ value, title, text }) => ({ value, title, icon: text === undefined ? undefined : { text } }))}
      showLabels
      textAnswer="Thanks for your feedback"
    />
  ),
};

function Widget(props: { set: ContentSet }) {
  const Preview = SCHEMA_PREVIEWS[props.set.schema];
  return <Preview set={props.set} target={{ contentSetId: props.set.id }} showCount={props.set.metadata.publicAggregates} />;
}

type Outcome = 'waiting' | 'erased' | { failed: string };

/**
 * Watches the widget it wraps: whenever the widget's DOM changes (it answered, or shows its
 * thanks), it reads the widget's store; once that holds a revocable response, it removes it.
 */
function TakeBack(props: { target: { contentSetId: string }; erase: () => Promise<unknown>; onOutcome: (outcome: Outcome) => void; children: ReactNode }) {
  const local = useLocalFeelback(props.target);
  const remove = useRemoveFeelback(props.target);
  const [, rerender] = useReducer((count: number) => count + 1, 0);
  const box = useRef<HTMLDivElement>(null);
  const started = useRef(false);
  const { onOutcome, erase } = props;
  useEffect(() => {
    if (!box.current) return;
    const observer = new MutationObserver(rerender);
    observer.observe(box.current, { subtree: true, childList: true, attributes: true, characterData: true });
    return () => observer.disconnect();
  }, []);
  useEffect(() => {
    if (started.current || local?.value === undefined) return;
    started.current = true;
    if (!local.isRevokable) {
      onOutcome({ failed: 'the server granted no revoke token, so it counts like any response' });
      return;
    }
    void remove.call().then(async (result) => {
      if (result.isError) return onOutcome({ failed: `${result.error?.message ?? 'the removal failed'}, so it counts like any response` });
      await erase().then(
        () => onOutcome('erased'),
        (error: Error) => onOutcome({ failed: `it was taken back (it counts no more) but not erased: ${error.message}` }),
      );
    });
  }, [local, remove, onOutcome, erase]);
  return <div ref={box}>{props.children}</div>;
}

/** `erase`: erases what was taken back (the embed page's, through the API, for admins: useErasePreviewResponses). */
export default function WidgetPreview(props: { set: ContentSet; endpoint: string; erase: () => Promise<unknown> }) {
  const [attempt, setAttempt] = useState(0);
  const [outcome, setOutcome] = useState<Outcome>('waiting');
  const target = { contentSetId: props.set.id };
  return (
    <div className="widget-preview" data-testid="widget-preview">
      {/* A store in memory: the widget keeps its revoke token where the preview can use it, and nothing outlives the page. */}
      <FeelbackProvider endpoint={props.endpoint} store="memory">
        <TakeBack key={attempt} target={target} erase={props.erase} onOutcome={setOutcome}>
          <Widget set={props.set} />
        </TakeBack>
      </FeelbackProvider>
      <p role="status" data-testid="preview-status" className={outcome === 'waiting' ? 'muted' : typeof outcome === 'object' ? 'error' : 'success'}>
        {outcome === 'waiting'
          ? 'Answer the widget: the response is recorded, then taken back and erased at once.'
          : outcome === 'erased'
            ? 'Recorded, taken back and erased: nothing of it remains.'
            : `Recorded, but not cleaned up: ${outcome.failed}.`}
      </p>
      {outcome !== 'waiting' && (
        <button
          type="button"
          onClick={() => {
            setOutcome('waiting');
            setAttempt((count) => count + 1);
          }}
        >
          Try again
        </button>
      )}
    </div>
  );
}
