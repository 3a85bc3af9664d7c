/**
 * Next may evaluate a module more than once in one process, so process-wide state lives on globalThis under one name,
 * shared by every copy of the module.
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
