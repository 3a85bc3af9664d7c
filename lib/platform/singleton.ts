/**
 * Next.js may evaluate a module more than once in one process (instrumentation, route bundles, server actions).
 * Process-wide state (the database handle, in-process limit counters, background flushers) lives on globalThis
 * under one name so every copy of the module shares it.
 */
const registry = ((globalThis as Record<string, unknown>).__almanacSingletons ??= new Map<string, unknown>()) as Map<string, unknown>;

export function processSingleton<T>(name: string, create: () => T): T {
  if (!registry.has(name)) registry.set(name, create());
  return registry.get(name) as T;
}

export function replaceProcessSingleton<T>(name: string, value: T | undefined): void {
  if (value === undefined) registry.delete(name);
  else registry.set(name, value);
}

export function peekProcessSingleton<T>(name: string): T | undefined {
  return registry.get(name) as T | undefined;
}
