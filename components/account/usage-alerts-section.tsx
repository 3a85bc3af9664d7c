import { Alert } from '@/components/ui/alert';
import { Section } from '@/components/ui/section';
import { SubmitButton } from '@/components/ui/submit-button';
import { formatDate } from '@/lib/platform/format';
import { AlertWebhookForm, SendTestEventForm, type AlertWebhookAction } from './alert-webhook-form';

/** The subscription page's usage alerts: what was sent this period, and the optional webhook (docs/api.md §11.4). */
export function UsageAlertsSection({
  subscriptionId,
  webhook,
  sent,
  removed,
  actions,
}: {
  subscriptionId: string;
  webhook: { url: string } | null;
  sent: { threshold: number; createdAt: Date }[];
  removed: boolean;
  actions: { save: AlertWebhookAction; send: AlertWebhookAction; remove: (formData: FormData) => Promise<void> };
}) {
  return (
    <Section id="alerts-heading" title="Usage alerts" size="base" className="mt-6 rounded-lg border border-slate-200 bg-white p-5">
      <p className="mt-1 text-sm text-slate-700">
        We email you when this subscription has used 80% and 100% of the period&apos;s queries, once each per period.
        {sent.length > 0 ? ` This period: ${sent.map((a) => `${a.threshold}% on ${formatDate(a.createdAt)}`).join(', ')}.` : ' None sent this period.'}
      </p>
      {/* The address keeps ?alerts=removed after a new webhook is saved on this page: the notice is for no webhook only. */}
      {removed && !webhook ? (
        <Alert tone="success" className="mt-3">
          The webhook was removed; alerts still come by email.
        </Alert>
      ) : null}
      <h3 className="mt-4 text-sm font-semibold text-slate-900">Webhook</h3>
      <p className="mt-1 text-sm text-slate-700">
        Optionally, we also POST each alert to your endpoint, signed like the publisher call, retried until it answers 2xx.
      </p>
      {webhook ? (
        <p className="mt-2 break-all text-sm text-slate-900">
          Sending to <code className="font-mono text-xs">{webhook.url}</code>
        </p>
      ) : null}
      <AlertWebhookForm subscriptionId={subscriptionId} currentUrl={webhook?.url ?? null} save={actions.save} />
      {webhook ? (
        <div className="mt-4 flex flex-wrap items-center gap-3">
          <SendTestEventForm subscriptionId={subscriptionId} send={actions.send} />
          <form action={actions.remove}>
            <input type="hidden" name="subscriptionId" value={subscriptionId} />
            <SubmitButton variant="ghost" size="sm" pendingLabel="Removing…">
              Remove webhook
            </SubmitButton>
          </form>
        </div>
      ) : null}
    </Section>
  );
}
