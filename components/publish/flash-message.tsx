import { Alert } from '@/components/ui/alert';
import { PUBLISH_FLASH, type PublishFlashCode } from './flash';

/** The console's message for a parsed `?flash=` code. */
export function PublishFlashMessage({ code }: { code: PublishFlashCode | null }) {
  if (!code) return null;
  const message = PUBLISH_FLASH[code];
  return (
    <div data-testid="flash" className="mb-6">
      <Alert tone={message.tone}>{message.text}</Alert>
    </div>
  );
}
