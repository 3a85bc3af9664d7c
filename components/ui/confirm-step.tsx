'use client';

import { useEffect, useRef, type ReactNode } from 'react';
import { Button } from './button';

// The one confirmation for actions that cannot be undone: a panel in place, not a browser dialog, so keyboards and
// screen readers reach it like any other content.
export function ConfirmStep({ question, confirmButton, onCancel }: { question: string; confirmButton: ReactNode; onCancel: () => void }) {
  const panel = useRef<HTMLDivElement>(null);
  useEffect(() => {
    panel.current?.querySelector<HTMLButtonElement>('[data-confirm]')?.focus();
  }, []);
  return (
    <div
      ref={panel}
      role="group"
      aria-label="Confirm"
      onKeyDown={(event) => {
        if (event.key === 'Escape') onCancel();
      }}
      className="flex flex-wrap items-center gap-2 rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-950"
      data-testid="confirm-step"
    >
      <p role="status" className="mr-1">
        {question}
      </p>
      {confirmButton}
      <Button variant="secondary" size="sm" onClick={onCancel}>
        Keep it
      </Button>
    </div>
  );
}
