import { Parser } from 'htmlparser2';

// A page's forms read from its HTML and posted as a browser without JavaScript posts them, server actions included
// (Next renders their ids into hidden fields): the fuzz's targets, and the browser specs' set-up over HTTP.

export interface FormTarget {
  /** The page the form was found on (and posts to, for a server action). */
  page: string;
  /** Where it goes: the page itself for a server action, else its action attribute. */
  action: string;
  method: 'GET' | 'POST';
  enctype: 'multipart/form-data' | 'application/x-www-form-urlencoded';
  fields: [string, string][];
  actionId?: string;
  /** Found signed in: posted with the session cookie. */
  signedIn: boolean;
}

/** The forms of a page: fields in document order (hidden inputs, named inputs, textareas, selects, named buttons). */
export function parseForms(html: string, page: string, signedIn: boolean): FormTarget[] {
  const forms: FormTarget[] = [];
  let current: (FormTarget & { depth: number }) | null = null;
  let select: { name: string; value: string | null } | null = null;
  let textarea: { name: string; value: string } | null = null;
  const parser = new Parser(
    {
      onopentag(tag, attrs) {
        if (tag === 'form') {
          const action = attrs.action ?? '';
          current = {
            page,
            action: action === '' ? page : action,
            method: (attrs.method ?? 'get').toUpperCase() === 'POST' ? 'POST' : 'GET',
            enctype: attrs.enctype === 'multipart/form-data' ? 'multipart/form-data' : 'application/x-www-form-urlencoded',
            fields: [],
            signedIn,
            depth: 0,
          };
          return;
        }
        if (!current) return;
        const name = attrs.name;
        if (tag === 'input' && name && !['submit', 'image', 'reset', 'file'].includes(attrs.type ?? '')) {
          if ((attrs.type === 'checkbox' || attrs.type === 'radio') && attrs.checked === undefined) return;
          current.fields.push([name, attrs.value ?? (attrs.type === 'checkbox' ? 'on' : '')]);
        } else if (tag === 'button' && name) current.fields.push([name, attrs.value ?? '']);
        else if (tag === 'select' && name) select = { name, value: null };
        else if (tag === 'option' && select && (select.value === null || attrs.selected !== undefined)) select.value = attrs.value ?? '';
        else if (tag === 'textarea' && name) textarea = { name, value: '' };
      },
      ontext(text) {
        if (textarea) textarea.value += text;
      },
      onclosetag(tag) {
        if (!current) return;
        if (tag === 'select' && select) {
          current.fields.push([select.name, select.value ?? '']);
          select = null;
        } else if (tag === 'textarea' && textarea) {
          current.fields.push([textarea.name, textarea.value]);
          textarea = null;
        } else if (tag === 'form') {
          const { depth: _depth, ...form } = current;
          for (const [name, value] of form.fields) {
            const direct = /^\$ACTION_ID_(.+)$/.exec(name)?.[1];
            if (direct) form.actionId = direct;
            else if (/^\$ACTION_\d+:0$/.test(name)) {
              try {
                form.actionId = (JSON.parse(value) as { id?: string }).id;
              } catch {
                // not an action reference
              }
            }
          }
          forms.push(form);
          current = null;
        }
      },
    },
    { decodeEntities: true },
  );
  parser.write(html);
  parser.end();
  return forms;
}

function multipart(fields: [string, string][], boundary: string): Buffer {
  const parts = fields.map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`);
  return Buffer.from(`${parts.join('')}--${boundary}--\r\n`, 'utf8');
}

export function encodeForm(form: FormTarget, values: Record<string, string> = {}): { body: Buffer; contentType: string } {
  const fields = form.fields.map(([name, value]): [string, string] => [name, values[name] ?? value]);
  for (const [name, value] of Object.entries(values)) if (!fields.some(([n]) => n === name)) fields.push([name, value]);
  if (form.enctype === 'multipart/form-data') {
    const boundary = '----almanacfuzz7MA4YWxkTrZu0gW';
    return { body: multipart(fields, boundary), contentType: `multipart/form-data; boundary=${boundary}` };
  }
  return { body: Buffer.from(new URLSearchParams(fields).toString()), contentType: 'application/x-www-form-urlencoded' };
}
