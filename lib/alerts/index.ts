/** Usage alerts (usage-alerts.ts): the thresholds, the email and the buyer's signed webhook. */
export { ALERT_WEBHOOK_QUEUE, listUsageAlerts, noteUsage, reachedThresholds, recordUsageAlerts, type UsagePoint } from './usage-alerts';
export { deliverAlertWebhook, getAlertWebhook, registerAlertJobs, removeAlertWebhook, saveAlertWebhook, sendTestAlertWebhook } from './webhooks';
