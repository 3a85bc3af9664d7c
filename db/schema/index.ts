// The data model of the whole product. Ids are prefixed text (`kb_…`, `sub_…`, lib/platform/ids.ts). Counters that
// pages sort by are denormalised onto knowledge_bases and kept in the same transaction as the rows they summarise.

export * from './accounts';
export * from './catalog';
export * from './content';
export * from './subscriptions';
export * from './keys';
export * from './metering';
export * from './ledgers';
export * from './requests';
