import { useId, useState, type FormEvent } from 'react';
import { Link } from 'wouter';
import type { ContentSet } from '@feedback-service/client';
import { isWholeNumberIn, NumberField } from '../components/number-field';
import { Page, QueryPageState } from '../components/page';
import { ChangeError } from '../components/states';
import { useProject } from '../data/projects';
import { useContentSet, useSaveSet } from '../data/sets';
import { useSession } from '../session';
import { scoreView } from '../schemas';

const MAX_REVOKE_MINUTES = 30 * 24 * 60;
/** The API's bound of publicMinCount (functions/api/models.ts MAX_PUBLIC_MIN_COUNT). */
const MAX_PUBLIC_MIN_COUNT = 1000;
/** The API's bound of an alert's fewest responses (docs/api.md, "Alerts"). */
const MAX_MIN_RESPONSES = 1_000_000;
/** The API's bounds of the review rules (functions/api/models.ts, the quarantine settings), for each field and the form's check alike. */
const REVIEW_BOUNDS = {
  visitorBurst: { min: 0, max: 1000 },
  addressLimit: { min: 0, max: 1000 },
  surgeFloor: { min: 0, max: 1_000_000 },
  surgeFactor: { min: 1, max: 1000 },
};

/** "0 to 1,000": a field's bounds in the form's error message. */
const range = (bounds: { min: number; max: number }) => `${bounds.min.toLocaleString('en')} to ${bounds.max.toLocaleString('en')}`;

/** A value to the precision of an input's step, without the float's tail (0.1 * 100 is 10.000000000000002). */
function roundTo(value: number, step: number): number {
  return Number((Math.round(value / step) * step).toFixed(6));
}

function SettingsForm(props: { set: ContentSet }) {
  const { set } = props;
  const [name, setName] = useState(set.name);
  const [description, setDescription] = useState(set.metadata.description ?? '');
  const [publicAggregates, setPublicAggregates] = useState(set.metadata.publicAggregates);
  const [autoCreate, setAutoCreate] = useState(!set.metadata.disallowAutoContentCreation);
  const [revokeMinutes, setRevokeMinutes] = useState(String(Math.round(set.metadata.revokeWindow / 60)));
  const [onePerVisitor, setOnePerVisitor] = useState(set.metadata.onePerVisitor);
  const [publicMinCount, setPublicMinCount] = useState(String(set.metadata.publicMinCount));
  const [state, setState] = useState<ContentSet['state']>(set.state);
  const alerts = set.metadata.alerts;
  const score = scoreView(set.schema);
  const [alertsEnabled, setAlertsEnabled] = useState(alerts.enabled);
  const [minResponses, setMinResponses] = useState(String(alerts.minResponses));
  // The drop is typed in the score's own unit as people read it (points of a share, stars).
  const [minDrop, setMinDrop] = useState(
    alerts.minDrop !== undefined && score ? String(roundTo(alerts.minDrop * score.dropInput.perScore, score.dropInput.step)) : '',
  );
  const quarantine = set.metadata.quarantine;
  const [visitorBurst, setVisitorBurst] = useState(String(quarantine.visitorBurst));
  const [addressLimit, setAddressLimit] = useState(String(quarantine.addressLimit));
  const [surgeFloor, setSurgeFloor] = useState(String(quarantine.surgeFloor));
  const [surgeFactor, setSurgeFactor] = useState(String(quarantine.surgeFactor));
  const [spamCheck, setSpamCheck] = useState(quarantine.spamCheck);
  const [saved, setSaved] = useState(false);
  const ids = {
    quarantineHint: useId(),
    name: useId(),
    description: useId(),
    state: useId(),
    onePerVisitorHint: useId(),
    alertsHint: useId(),
  };
  const save = useSaveSet(set.id, { onSuccess: () => setSaved(true) });
  const minutes = Number(revokeMinutes);
  const validRevoke = revokeMinutes.trim() !== '' && Number.isFinite(minutes) && minutes >= 0 && minutes <= MAX_REVOKE_MINUTES;
  const minCount = Number(publicMinCount);
  const validMinCount = isWholeNumberIn(publicMinCount, 0, MAX_PUBLIC_MIN_COUNT);
  const responses = Number(minResponses);
  const validResponses = !score || isWholeNumberIn(minResponses, 1, MAX_MIN_RESPONSES);
  const drop = Number(minDrop);
  const validDrop = !score || (minDrop.trim() !== '' && Number.isFinite(drop) && drop > 0);
  const validBurst = isWholeNumberIn(visitorBurst, REVIEW_BOUNDS.visitorBurst.min, REVIEW_BOUNDS.visitorBurst.max);
  const validAddressLimit = isWholeNumberIn(addressLimit, REVIEW_BOUNDS.addressLimit.min, REVIEW_BOUNDS.addressLimit.max);
  const validFloor = isWholeNumberIn(surgeFloor, REVIEW_BOUNDS.surgeFloor.min, REVIEW_BOUNDS.surgeFloor.max);
  const validFactor = isWholeNumberIn(surgeFactor, REVIEW_BOUNDS.surgeFactor.min, REVIEW_BOUNDS.surgeFactor.max);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSaved(false);
    if (validRevoke && validMinCount && validResponses && validDrop && validBurst && validAddressLimit && validFloor && validFactor)
      save.mutate({
        quarantine: {
          visitorBurst: Number(visitorBurst),
          addressLimit: Number(addressLimit),
          surgeFloor: Number(surgeFloor),
          surgeFactor: Number(surgeFactor),
          spamCheck,
        },
        // A set without a score takes no alert settings (the API refuses them).
        ...(score ? { alerts: { enabled: alertsEnabled, minResponses: responses, minDrop: drop / score.dropInput.perScore } } : {}),
        name: name.trim(),
        description: description.trim(),
        publicAggregates,
        disallowAutoContentCreation: !autoCreate,
        revokeWindow: Math.round(Number(revokeMinutes) * 60),
        onePerVisitor,
        publicMinCount: minCount,
        state,
      });
  };
  return (
    <form onSubmit={submit} className="form settings">
      <label htmlFor={ids.name}>Name</label>
      <input id={ids.name} value={name} onChange={(event) => setName(event.target.value)} maxLength={100} required />
      <label htmlFor={ids.description}>Description</label>
      <textarea id={ids.description} value={description} onChange={(event) => setDescription(event.target.value)} maxLength={255} rows={2} />
      <label className="checkbox">
        <input type="checkbox" checked={publicAggregates} onChange={(event) => setPublicAggregates(event.target.checked)} />
        <span>
          Public counts: widgets may show how many answered each option (<code>showCount</code>) without a key
        </span>
      </label>
      <NumberField
        label="Hide public counts below (responses)"
        min={0}
        max={MAX_PUBLIC_MIN_COUNT}
        value={publicMinCount}
        onChange={setPublicMinCount}
        valid={validMinCount}
        hint="Widgets show zeros while a page has fewer responses than this in the period, so a count of one cannot reveal what one person answered; 0 shows every count. Signed-in views always see the counts."
      />
      <label className="checkbox">
        <input type="checkbox" checked={onePerVisitor} onChange={(event) => setOnePerVisitor(event.target.checked)} aria-describedby={ids.onePerVisitorHint} />
        <span>One vote per visitor: a visitor’s second response on a page the same day replaces the first</span>
      </label>
      <p id={ids.onePerVisitorHint} className="hint">
        Visitors are recognised by a hash of address and browser under a key that changes every day; neither is stored. Server calls with an API key always
        record every response.
      </p>
      <label className="checkbox">
        <input type="checkbox" checked={autoCreate} onChange={(event) => setAutoCreate(event.target.checked)} />
        <span>Create content items automatically on a page’s first response</span>
      </label>
      <NumberField
        label="Revoke window (minutes)"
        min={0}
        max={MAX_REVOKE_MINUTES}
        value={revokeMinutes}
        onChange={setRevokeMinutes}
        valid={validRevoke}
        hint="How long a visitor can change or take back an answer; 0 turns it off (at most 30 days)."
      />
      <fieldset className="settings-group">
        <legend>Alerts</legend>
        {score ? (
          <>
            <p id={ids.alertsHint} className="hint">
              An alert goes out when a page’s (or the whole set’s) last 7 days are worse than the 28 days before, beyond the noise and by at least this drop. It
              shows on the Alerts page and goes to the webhooks that ask for <code>stats.alert</code>.
            </p>
            <label className="checkbox">
              <input type="checkbox" checked={alertsEnabled} onChange={(event) => setAlertsEnabled(event.target.checked)} aria-describedby={ids.alertsHint} />
              <span>Alert when feedback turns worse</span>
            </label>
            <NumberField
              label="Fewest responses in each window"
              min={1}
              max={MAX_MIN_RESPONSES}
              value={minResponses}
              onChange={setMinResponses}
              valid={validResponses}
            />
            <NumberField
              label={`Smallest drop that matters (${score.dropInput.unit})`}
              min={0}
              step={score.dropInput.step}
              value={minDrop}
              onChange={setMinDrop}
              valid={validDrop}
            />
          </>
        ) : (
          <p className="hint">Answers of this schema have no score that can turn worse, so its pages never alert.</p>
        )}
      </fieldset>
      <fieldset className="settings-group">
        <legend>Held for review</legend>
        <p id={ids.quarantineHint} className="hint">
          Responses that look like a flood or spam are held on the project’s Review page instead of being counted; the visitor sees the usual thanks. 0 turns a
          rule off.
        </p>
        <NumberField
          label="Responses one visitor may give on a page within a minute"
          {...REVIEW_BOUNDS.visitorBurst}
          value={visitorBurst}
          onChange={setVisitorBurst}
          describedBy={ids.quarantineHint}
          valid={validBurst}
        />
        <NumberField
          label="Browsers one address may answer with on a page each day"
          {...REVIEW_BOUNDS.addressLimit}
          value={addressLimit}
          onChange={setAddressLimit}
          valid={validAddressLimit}
          hint="A household has a few; an office, school or mobile network behind one shared address may have many more: raise it for a site such visitors use, or approve them on the Review page."
        />
        <NumberField
          label="Responses a page may take within a minute before a surge is held"
          {...REVIEW_BOUNDS.surgeFloor}
          value={surgeFloor}
          onChange={setSurgeFloor}
          valid={validFloor}
        />
        <NumberField
          label="…or this many times the page’s usual rate, when that is more"
          {...REVIEW_BOUNDS.surgeFactor}
          value={surgeFactor}
          onChange={setSurgeFactor}
          valid={validFactor}
        />
        <label className="checkbox">
          <input type="checkbox" checked={spamCheck} onChange={(event) => setSpamCheck(event.target.checked)} />
          <span>Hold messages that look like spam (links, repeated text, the same message on many pages)</span>
        </label>
      </fieldset>
      <label htmlFor={ids.state}>State</label>
      <select id={ids.state} value={state} onChange={(event) => setState(event.target.value as ContentSet['state'])}>
        <option value="active">Active: takes responses</option>
        <option value="inactive">Inactive: paused, keeps its data</option>
        <option value="archived">Archived: retired</option>
      </select>
      <ChangeError error={save.error} />
      {!validRevoke && (
        <p className="error" role="alert">
          The revoke window must be between 0 and {MAX_REVOKE_MINUTES} minutes.
        </p>
      )}
      {!validMinCount && (
        <p className="error" role="alert">
          The count to hide below must be a whole number between 0 and {MAX_PUBLIC_MIN_COUNT}.
        </p>
      )}
      {!validResponses && (
        <p className="error" role="alert">
          The fewest responses must be a whole number from 1 to {MAX_MIN_RESPONSES.toLocaleString('en')}.
        </p>
      )}
      {!validDrop && (
        <p className="error" role="alert">
          The smallest drop must be a number above 0.
        </p>
      )}
      {!(validBurst && validAddressLimit && validFloor && validFactor) && (
        <p className="error" role="alert">
          The review limits must be whole numbers: per visitor {range(REVIEW_BOUNDS.visitorBurst)}, browsers per address {range(REVIEW_BOUNDS.addressLimit)},
          per page {range(REVIEW_BOUNDS.surgeFloor)}, times the usual rate {range(REVIEW_BOUNDS.surgeFactor)}.
        </p>
      )}
      <div className="form-actions">
        <button type="submit" className="primary" disabled={save.isPending || name.trim() === ''}>
          {save.isPending ? 'Saving…' : 'Save settings'}
        </button>
        <span role="status" className="success">
          {saved && !save.isPending ? 'Saved.' : ''}
        </span>
      </div>
    </form>
  );
}

export function SetSettingsPage(props: { setId: string }) {
  const { isAdmin } = useSession();
  const set = useContentSet(props.setId);
  const project = useProject(set.data?.projectId);
  if (set.error || !set.data) return <QueryPageState title="Settings" what="settings" query={set} />;
  const crumbs = [
    { label: 'Projects', href: '/projects' },
    { label: project.data?.name ?? 'Project', href: `/projects/${set.data.projectId}` },
    { label: set.data.name, href: `/sets/${set.data.id}` },
  ];
  return (
    <Page title={set.data.name} kicker="Content set settings" crumbs={crumbs}>
      {isAdmin ? (
        <SettingsForm key={set.data.id} set={set.data} />
      ) : (
        <p>
          Only admins change settings. <Link href={`/sets/${set.data.id}`}>Back to the content set</Link>.
        </p>
      )}
    </Page>
  );
}
