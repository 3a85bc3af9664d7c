/** The buyer's dashboard pages, each read in one call from the domains it shows. */
export { loadSubscriptionPage } from './subscription-page';
