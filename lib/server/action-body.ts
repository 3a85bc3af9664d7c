import type { IncomingHttpHeaders } from 'node:http';
import { decodeUtf8 } from '@/lib/platform/text-input';

/**
 * Finds the server-action bodies that Next's action handler and React's decodeAction / decodeReply would throw on (a
 * 500 before any action code runs), so the front door can refuse them with a 400.
 */

/** Next's limit on a server action's body (`serverActions.bodySizeLimit`, 1 MB by default). */
export const ACTION_BODY_LIMIT = 1024 * 1024;

// React reply references (`"$K1"`, `"$@2"`…) name another part by hex id; `$$…` escapes a string, a few are values.
const VALUE_REFERENCE = /^\$(\$|undefined$|NaN$|-?Infinity$|-0$|D|n)/;
function partReferences(value: unknown, out: string[] = [], depth = 0): string[] {
  // Deeper than any form's arguments: React's decoder recurses once per level and would overflow its stack.
  if (depth > MAX_REPLY_DEPTH) throw new RangeError('nested too deeply');
  if (typeof value === 'string' && value.startsWith('$') && !VALUE_REFERENCE.test(value)) out.push(value);
  else if (Array.isArray(value)) for (const item of value) partReferences(item, out, depth + 1);
  else if (value !== null && typeof value === 'object') for (const item of Object.values(value)) partReferences(item, out, depth + 1);
  return out;
}
const MAX_REPLY_DEPTH = 64;

/** A reference to a part the body lacks makes React fail (or wait) while decoding. */
function referencesResolve(root: unknown, parts: Map<string, string>): boolean {
  const seen = new Set<string>();
  const pending = partReferences(root);
  while (pending.length) {
    const reference = pending.pop()!;
    const match = /^\$([A-Za-z@])([0-9a-f]+)$/.exec(reference);
    if (!match) return false;
    if (match[1] === 'K') continue; // a FormData: the fields named "<id>_…", none at all is an empty one
    const id = String(parseInt(match[2]!, 16));
    if (seen.has(id)) continue;
    seen.add(id);
    const part = parts.get(id);
    if (part === undefined) return false;
    try {
      partReferences(JSON.parse(part), pending);
    } catch {
      return false;
    }
  }
  return true;
}

const ACTION_ID = /^[0-9a-f]{42}$/;
const UNREADABLE = 'The form data could not be read.';

export async function actionBodyProblem(headers: IncomingHttpHeaders, body: Buffer): Promise<string | null> {
  const type = headers['content-type'] ?? '';
  const fetchAction = headers['next-action'] !== undefined;
  if (type.startsWith('multipart/form-data')) {
    let form: FormData;
    try {
      form = await new Response(new Uint8Array(body), { headers: { 'content-type': type } }).formData();
    } catch {
      return UNREADABLE;
    }
    // Parts React reads as JSON must be plain fields; a file sent under such a name is as unreadable as bad JSON.
    const names = [...form.keys()];
    const fields = new Map<string, string>();
    for (const [name, value] of form) if (typeof value === 'string') fields.set(name, value);
    if (fetchAction) {
      // A fetch action's reply: part "0" is the root, a JSON array of the arguments.
      const root = fields.get('0');
      if (root === undefined) return UNREADABLE;
      try {
        const parsed: unknown = JSON.parse(root);
        return Array.isArray(parsed) && referencesResolve(parsed, fields) ? null : UNREADABLE;
      } catch {
        return UNREADABLE;
      }
    }
    // A form posted without JavaScript: `$ACTION_ID_<id>`, or `$ACTION_REF_<n>` with its descriptor `$ACTION_<n>:0`
    // ({"id", "bound": "$@1"}) and bound arguments `$ACTION_<n>:<m>`, all JSON.
    for (const name of names) {
      const direct = /^\$ACTION_ID_(.*)$/.exec(name);
      if (direct && !ACTION_ID.test(direct[1]!)) return UNREADABLE;
      const ref = /^\$ACTION_REF_(\d+)$/.exec(name);
      if (!ref) continue;
      const prefix = `$ACTION_${ref[1]}:`;
      const parts = new Map([...fields].filter(([key]) => key.startsWith(prefix)).map(([key, part]) => [key.slice(prefix.length), part]));
      const descriptor = parts.get('0');
      if (descriptor === undefined) {
        if (form.get(`${prefix}0`) !== null) return UNREADABLE; // a file where the descriptor belongs
        continue; // no descriptor at all: Next refuses it itself (400)
      }
      try {
        const parsed = JSON.parse(descriptor) as { id?: unknown; bound?: unknown };
        if (typeof parsed?.id !== 'string' || !ACTION_ID.test(parsed.id) || !referencesResolve(parsed, parts)) return UNREADABLE;
        // The bound arguments are a list (React reads their length): inline, or in the part "$@<id>" names.
        if (typeof parsed.bound === 'string') {
          if (!Array.isArray(JSON.parse(parts.get(String(parseInt(parsed.bound.slice(2), 16)))!))) return UNREADABLE;
        } else if (parsed.bound !== null && parsed.bound !== undefined && !Array.isArray(parsed.bound)) return UNREADABLE;
      } catch {
        return UNREADABLE;
      }
    }
    return null;
  }
  // A fetch action's reply as text: the JSON array of the arguments, with nothing it would have to find elsewhere.
  const text = decodeUtf8(body);
  if (text === null) return 'The request body is not valid UTF-8.';
  let reply: unknown;
  try {
    reply = JSON.parse(text);
  } catch {
    return 'The request body is not a server action reply.';
  }
  try {
    return Array.isArray(reply) && partReferences(reply).length === 0 ? null : 'The request body is not a server action reply.';
  } catch {
    return 'The request body is not a server action reply.';
  }
}
