// The served OpenAPI document (docs/api.md §2.10) as /docs shows it to a person: without the 405-only operations and
// the CORS preflights, which the reference says in one sentence instead; /api/openapi.json keeps them for machines.
type Json = Record<string, unknown>;

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

function isOnlyFor405(operation: Json): boolean {
  const statuses = Object.keys((operation.responses as Json | undefined) ?? {});
  return statuses.length > 0 && statuses.every((status) => status === '405');
}

function isPreflight(method: string, operation: Json): boolean {
  const statuses = Object.keys((operation.responses as Json | undefined) ?? {});
  return method === 'options' && statuses.every((status) => status === '204' || status === '405');
}

function untagged(operation: Json): Json {
  const { tags: _tags, ...rest } = operation;
  return rest;
}

export function referenceDocument(document: Json): Json {
  const paths: Record<string, Json> = {};
  for (const [route, item] of Object.entries((document.paths as Record<string, Json> | undefined) ?? {})) {
    const kept: Json = {};
    for (const [key, value] of Object.entries(item)) {
      const method = METHODS.find((m) => m === key);
      if (method && (isOnlyFor405(value as Json) || isPreflight(method, value as Json))) continue;
      // Without tags, Redoc's side menu lists every operation instead of two groups that open one at a time.
      kept[key] = method ? untagged(value as Json) : value;
    }
    if (METHODS.some((method) => method in kept)) paths[route] = kept;
  }
  const { tags: _tags, ...rest } = document;
  return { ...rest, paths };
}

export function listedOperations(document: Json): string[] {
  return Object.entries((document.paths as Record<string, Json> | undefined) ?? {}).flatMap(([route, item]) =>
    METHODS.filter((method) => method in item).map((method) => `${method.toUpperCase()} ${route}`),
  );
}
