// The one import of Next's internals: what this parser throws on, Next answers with a plain-text 500, so the front
// door asks it first and answers 400. Not a public API; next-router-state.test.ts fails when an upgrade moves it.
import { parseAndValidateFlightRouterState } from 'next/dist/server/app-render/parse-and-validate-flight-router-state.js';

export function isReadableRouterState(header: string | string[]): boolean {
  try {
    parseAndValidateFlightRouterState(header);
    return true;
  } catch {
    return false;
  }
}
