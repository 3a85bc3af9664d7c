// The one import of Next's internals in the code: Next's own reading of the router state an RSC request carries
// (`Next-Router-State-Tree`). What it throws on, Next answers with a plain-text 500, so the front door asks the same
// function first and answers 400 instead. Not a public API of Next: next-router-state.test.ts fails on an upgrade
// that moves or changes it.
import { parseAndValidateFlightRouterState } from 'next/dist/server/app-render/parse-and-validate-flight-router-state.js';

export function isReadableRouterState(header: string | string[]): boolean {
  try {
    parseAndValidateFlightRouterState(header);
    return true;
  } catch {
    return false;
  }
}
