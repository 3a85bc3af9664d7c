import type { FlashText } from '@/lib/site/flash';
import { Alert } from './alert';

/** The message a page shows after a redirect (lib/site/flash.ts); nothing for null. */
export function FlashMessage({ message }: { message: FlashText | null }) {
  if (!message) return null;
  return (
    <div data-testid="flash" className="mb-6">
      <Alert tone={message.tone}>{message.text}</Alert>
    </div>
  );
}
