/**
 * The account's alerts, newest first: each a page or set whose last 7 days were significantly
 * worse than the 28 days before (docs/api.md, "Alerts"), in words, with "Load more" through
 * the cursor. Which sets alert, and from how large a drop, is each set's setting.
 */
import { AlertItem } from '../components/alert-item';
import { LoadMore } from '../components/load-more';
import { Page } from '../components/page';
import { Empty, ErrorMessage, Loading } from '../components/states';
import { useAlerts } from '../data/alerts';
import { loadedItems } from '../data/paging';

export default function AlertsPage() {
  const alerts = useAlerts({});
  const items = loadedItems(alerts.data);
  return (
    <Page
      title="Alerts"
      subtitle="Pages and sets whose last 7 days were clearly worse than the 28 days before: beyond the noise, by at least the drop their set asks for. Newest first."
    >
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
