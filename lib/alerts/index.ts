/**
 * Usage alerts (docs/api.md §11.4): the 80% and 100% thresholds of a subscription's period, the email, and the buyer's
 * signed webhook. This file is the folder's public surface; other folders import from '@/lib/alerts' only.
 */
export { ALERT_WEBHOOK_QUEUE, listUsageAlerts, noteUsage, reachedThresholds, recordUsageAlerts, type UsagePoint } from './usage-alerts';
export { deliverAlertWebhook, getAlertWebhook, registerAlertJobs, removeAlertWebhook, saveAlertWebhook, sendTestAlertWebhook } from './webhooks';
