import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';

/** The app/ folder, whose route files the route tests import and call as Next would. */
export const APP = path.resolve(import.meta.dirname, '..', '..', 'app');

/** Every route handler file under `dir`. */
export function routeFiles(dir = APP): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return routeFiles(full);
    return /^route\.tsx?$/.test(name) ? [full] : [];
  });
}

/** A request URL for a route file's path, its dynamic segments filled in. */
export function urlOf(file: string): string {
  const segments = path
    .relative(APP, path.dirname(file))
    .split(path.sep)
    .filter((segment) => !/^\(.*\)$/.test(segment))
    .map((segment) => (segment.startsWith('[') ? 'x' : segment));
  return `http://localhost:3000/${segments.join('/')}`;
}
