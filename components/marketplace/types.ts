/** The marketplace components are fed with the catalogue's page views (type-only: no data access here). */
export type { KnowledgeBaseCard as KnowledgeBaseCardView, PlanView, PublisherRef } from '@/lib/catalog/listing';
export type { PlanOffer, SubscriberStanding } from '@/lib/subscriptions/standing';
