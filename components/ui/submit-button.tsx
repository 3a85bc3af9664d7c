'use client';

import { useFormStatus } from 'react-dom';
import { Button, type ButtonStyle } from './button';

/** A submit button that says it is working while its form's action runs. */
export function SubmitButton({
  children,
  pendingLabel,
  className,
  ...style
}: ButtonStyle & { children: string; pendingLabel: string; className?: string }) {
  const { pending } = useFormStatus();
  return (
    <Button type="submit" disabled={pending} aria-disabled={pending} className={className} {...style}>
      {pending ? pendingLabel : children}
    </Button>
  );
}
