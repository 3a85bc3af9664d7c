import { cx } from '@/components/ui/cx';
import { FLASH_MESSAGES, type FlashCode } from './flash';

const TONES = {
  success: 'border-emerald-300 bg-emerald-50 text-emerald-950',
  error: 'border-red-300 bg-red-50 text-red-950',
  info: 'border-sky-300 bg-sky-50 text-sky-950',
} as const;

/** The message for a parsed `?flash=` code (parseFlash in ./flash.ts); nothing for null. */
export function FlashMessage({ code }: { code: FlashCode | null }) {
  if (!code) return null;
  const message = FLASH_MESSAGES[code];
  return (
    <p role={message.tone === 'error' ? 'alert' : 'status'} data-testid="flash" className={cx('mb-6 rounded-md border px-4 py-3 text-sm', TONES[message.tone])}>
      {message.text}
    </p>
  );
}
