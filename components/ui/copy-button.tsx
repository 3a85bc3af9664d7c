'use client';

import { useEffect, useState } from 'react';
import { Button } from './button';
import { cx } from './cx';

type CopyStatus = 'idle' | 'copied' | 'failed';

const STATUS_TEXT: Record<CopyStatus, string> = {
  idle: '',
  copied: 'Copied',
  failed: 'Copy failed: select the text and copy it',
};

/** Cleared afterwards so that copying again is announced again. */
const COPIED_FOR_MS = 2500;

// Copies `value` and says so in a polite live region.
export function CopyButton({
  value,
  label = 'Copy',
  testId,
  tone = 'light',
  className,
}: {
  value: string;
  label?: string;
  testId?: string;
  tone?: 'light' | 'dark';
  className?: string;
}) {
  const [status, setStatus] = useState<CopyStatus>('idle');
  // Without JavaScript the button could do nothing; the text stays on the page, selectable, either way.
  const [scripted, setScripted] = useState(false);
  // eslint-disable-next-line react-hooks/set-state-in-effect -- once, after hydration: that is the moment scripts are known to run
  useEffect(() => setScripted(true), []);
  useEffect(() => {
    if (status !== 'copied') return;
    const timer = setTimeout(() => setStatus('idle'), COPIED_FOR_MS);
    return () => clearTimeout(timer);
  }, [status]);

  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
      setStatus('copied');
    } catch {
      setStatus('failed');
    }
  }

  const dark = tone === 'dark';
  return (
    <span className={cx('inline-flex items-center gap-2', className)}>
      {scripted ? (
        <Button onClick={copy} data-testid={testId} variant={dark ? 'inverse' : 'secondary'} size={dark ? 'xs' : 'sm'}>
          {label}
        </Button>
      ) : null}
      <span role="status" aria-live="polite" className={dark ? 'text-xs text-slate-300' : 'text-sm text-slate-700'}>
        {STATUS_TEXT[status]}
      </span>
    </span>
  );
}
