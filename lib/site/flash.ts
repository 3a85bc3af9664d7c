/**
 * A flash after a redirect: the producer adds a code to the path, the page shows that code's message. Each screen has
 * a closed table of messages, so a crafted link cannot put arbitrary text on a page.
 */
export interface FlashText {
  tone: 'success' | 'error' | 'info';
  text: string;
}

export function flashMessages<const M extends Record<string, FlashText>>(messages: M, param = 'flash') {
  type Code = keyof M & string;
  const parse = (value: unknown): Code | null => (typeof value === 'string' && Object.hasOwn(messages, value) ? (value as Code) : null);
  return {
    messages,
    withFlash: (path: string, code: Code): string => `${path}${path.includes('?') ? '&' : '?'}${param}=${code}`,
    /** The incoming parameter as a code; anything else (absent, repeated, unknown) is null and shows nothing. */
    parse,
    read: (value: unknown): FlashText | null => {
      const code = parse(value);
      return code === null ? null : messages[code]!;
    },
  };
}
