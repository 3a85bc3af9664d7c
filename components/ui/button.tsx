import Link from 'next/link';
import type { ComponentProps } from 'react';
import { cx } from './cx';

// The one button vocabulary: everything that looks like a button takes its variant and size from here.
type ButtonVariant = 'primary' | 'secondary' | 'ghost' | 'danger' | 'inverse';
type ButtonSize = 'xs' | 'sm' | 'md' | 'lg';

export interface ButtonStyle {
  variant?: ButtonVariant;
  size?: ButtonSize;
}

const base = 'inline-flex items-center justify-center gap-2 rounded-lg font-semibold transition-colors disabled:cursor-not-allowed disabled:opacity-60';
const variants: Record<ButtonVariant, string> = {
  primary: 'bg-brand-600 text-white shadow-sm hover:bg-brand-700',
  secondary: 'border border-slate-300 bg-white text-slate-900 shadow-sm hover:bg-slate-50',
  ghost: 'text-slate-700 hover:bg-slate-100 hover:text-slate-900',
  danger: 'bg-red-700 text-white shadow-sm hover:bg-red-800',
  inverse: 'border border-slate-600 bg-slate-800 text-slate-100 hover:bg-slate-700',
};
const sizes: Record<ButtonSize, string> = {
  xs: 'px-2.5 py-1 text-xs',
  sm: 'px-3 py-1.5 text-sm',
  md: 'px-4 py-2 text-sm',
  lg: 'px-4 py-3 text-base',
};

export function buttonClasses({ variant = 'primary', size = 'md' }: ButtonStyle = {}, className?: string): string {
  return cx(base, variants[variant], sizes[size], className);
}

export function Button({ variant, size, className, type = 'button', ...props }: ComponentProps<'button'> & ButtonStyle) {
  return <button type={type} className={buttonClasses({ variant, size }, className)} {...props} />;
}

/** No prefetch by default: every page renders on request, so a prefetch costs a server render for a visit that may never come. */
export function ButtonLink({ variant, size, className, prefetch = false, ...props }: ComponentProps<typeof Link> & ButtonStyle) {
  return <Link prefetch={prefetch} className={buttonClasses({ variant, size }, className)} {...props} />;
}
