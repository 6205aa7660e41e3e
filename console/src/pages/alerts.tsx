/**
 * The account's alerts, newest first: each a page or set whose last 7 days were significantly
 * worse than the 28 days before (docs/api.md, "Alerts"), in words, with "Load more" through
 * the cursor. Which sets alert, and from how large a drop, is each set's setting; how many
 * false alerts the account accepts, its false discovery rate, is said above the list and set
 * there by admins.
 */
import { useId, useState, type FormEvent } from 'react';
import { AlertItem } from '../components/alert-item';
import { LoadMore } from '../components/load-more';
import { Page } from '../components/page';
import { Empty, ErrorMessage, errorMessage, Loading } from '../components/states';
import { useAlerts, useAlertSettings, useSaveAlertSettings } from '../data/alerts';
import { loadedItems } from '../data/paging';
import { useSession } from '../session';

/** The rates an account may choose, in percent (alerts/saveSettings: 0.001 to 0.25). */
const RATE_PERCENT = { min: 0.1, max: 25 };

const percentOf = (rate: number) => String(Number((rate * 100).toPrecision(3)));

/** The account's false discovery rate in plain words; admins change it here. */
function FalseDiscoveryRate() {
  const { isAdmin } = useSession();
  const settings = useAlertSettings();
  const save = useSaveAlertSettings();
  const [draft, setDraft] = useState<string | undefined>();
  const inputId = useId();
  const hintId = useId();
  const errorId = useId();
  if (settings.error) return <ErrorMessage error={settings.error} retry={() => void settings.refetch()} />;
  if (!settings.data) return <Loading what="the alert settings" />;
  const current = percentOf(settings.data.falseDiscoveryRate);
  const explanation = (
    <p id={hintId} className="hint">
      Each day’s evaluation looks at all your pages together. Of the alerts it raises, about {current}% on average are false alarms: pages whose feedback did
      not really change. A lower rate means fewer false alarms, and fewer real drops found.
    </p>
  );
  if (!isAdmin) {
    return (
      <div className="alert-settings">
        <p>
          False discovery rate: <strong data-testid="false-discovery-rate">{current}%</strong> <span className="muted">(admins may change it)</span>
        </p>
        {explanation}
      </div>
    );
  }
  const text = draft ?? current;
  const value = Number(text);
  const valid = text.trim() !== '' && Number.isFinite(value) && value >= RATE_PERCENT.min && value <= RATE_PERCENT.max;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!valid) return;
    save.mutate(value / 100, { onSuccess: () => setDraft(undefined) });
  };
  return (
    <div className="alert-settings">
      <form className="inline-form" onSubmit={submit}>
        <label htmlFor={inputId}>False discovery rate (%)</label>
        <input
          id={inputId}
          type="number"
          min={RATE_PERCENT.min}
          max={RATE_PERCENT.max}
          step={0.1}
          value={text}
          onChange={(event) => {
            setDraft(event.target.value);
            save.reset();
          }}
          aria-invalid={valid ? undefined : true}
          aria-describedby={save.error ? `${hintId} ${errorId}` : hintId}
        />
        <button type="submit" disabled={draft === undefined || !valid || value === Number(current) || save.isPending}>
          Save
        </button>
        {save.error && (
          <p id={errorId} className="error field-error" role="alert">
            {errorMessage(save.error)}
          </p>
        )}
      </form>
      {explanation}
    </div>
  );
}

export default function AlertsPage() {
  const alerts = useAlerts({});
  const items = loadedItems(alerts.data);
  return (
    <Page
      title="Alerts"
      subtitle="Pages and sets whose last 7 days were clearly worse than the 28 days before: beyond the noise, by at least the drop their set asks for. Newest first."
    >
      <FalseDiscoveryRate />
      {alerts.error ? (
        <ErrorMessage error={alerts.error} retry={() => void alerts.refetch()} />
      ) : !alerts.data ? (
        <Loading what="alerts" />
      ) : items.length === 0 ? (
        <Empty title="No alerts yet">
          When a page’s feedback turns clearly worse, it shows here and is sent to the webhooks that ask for <code>stats.alert</code>. Each content set’s
          settings say whether it alerts.
        </Empty>
      ) : (
        <ol className="alert-list" aria-label="Alerts, newest first">
          {items.map((alert) => (
            <AlertItem key={alert.id} alert={alert} />
          ))}
        </ol>
      )}
      <LoadMore hasMore={alerts.hasNextPage} onMore={() => void alerts.fetchNextPage()} busy={alerts.isFetchingNextPage} />
    </Page>
  );
}
