'use client';

import { useRef, useState } from 'react';
import { useFormStatus } from 'react-dom';
import { Button, type ButtonStyle } from './button';
import { ConfirmStep } from './confirm-step';

/** With `confirm`, the first press opens a ConfirmStep whose button submits. */
export function SubmitButton({
  children,
  pendingLabel,
  className,
  confirm,
  ...style
}: ButtonStyle & { children: string; pendingLabel: string; className?: string; confirm?: string }) {
  const { pending } = useFormStatus();
  const [asking, setAsking] = useState(false);
  const opener = useRef<HTMLButtonElement>(null);
  const submit = (
    <Button type="submit" disabled={pending} aria-disabled={pending} className={className} data-confirm="" {...style}>
      {pending ? pendingLabel : children}
    </Button>
  );
  if (!confirm) return submit;
  if (asking) {
    return (
      <ConfirmStep
        question={confirm}
        confirmButton={submit}
        onCancel={() => {
          setAsking(false);
          requestAnimationFrame(() => opener.current?.focus());
        }}
      />
    );
  }
  return (
    <Button ref={opener} type="button" className={className} onClick={() => setAsking(true)} {...style}>
      {children}…
    </Button>
  );
}
