'use client';

import { useFormStatus } from 'react-dom';
import { Button, type ButtonStyle } from './button';

/**
 * A submit button that says it is working while its form's action runs. With `confirm`, an action that cannot be
 * undone asks first (the browser's own dialog, reachable by keyboard); cancelling sends nothing.
 */
export function SubmitButton({
  children,
  pendingLabel,
  className,
  confirm,
  ...style
}: ButtonStyle & { children: string; pendingLabel: string; className?: string; confirm?: string }) {
  const { pending } = useFormStatus();
  const ask = confirm ? (event: React.MouseEvent<HTMLButtonElement>) => !window.confirm(confirm) && event.preventDefault() : undefined;
  return (
    <Button type="submit" disabled={pending} aria-disabled={pending} className={className} onClick={ask} {...style}>
      {pending ? pendingLabel : children}
    </Button>
  );
}
