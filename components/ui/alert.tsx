import type { ReactNode } from 'react';
import { cx } from './cx';

const tones = {
  info: 'border-brand-100 bg-brand-50 text-brand-700',
  error: 'border-red-200 bg-red-50 text-red-800',
  success: 'border-emerald-200 bg-emerald-50 text-emerald-800',
  warning: 'border-amber-200 bg-amber-50 text-amber-900',
} as const;

/** A message box; `role="alert"` for errors so they are announced when they appear. */
export function Alert({
  tone = 'info',
  title,
  children,
  className,
  testId,
}: {
  tone?: keyof typeof tones;
  title?: string;
  children?: ReactNode;
  className?: string;
  testId?: string;
}) {
  return (
    <div role={tone === 'error' ? 'alert' : 'status'} className={cx('rounded-lg border px-4 py-3 text-sm', tones[tone], className)} data-testid={testId}>
      {title ? <p className="font-semibold">{title}</p> : null}
      {children ? <div className={title ? 'mt-1' : undefined}>{children}</div> : null}
    </div>
  );
}

/** A form's refusal above its fields, announced when it appears; nothing when there is none. */
export function FormError({ message }: { message?: string }) {
  if (!message) return null;
  return (
    <p role="alert" className="rounded-md border border-red-300 bg-red-50 px-4 py-3 text-sm text-red-950">
      {message}
    </p>
  );
}
