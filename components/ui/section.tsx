import type { ReactNode } from 'react';
import { cx } from './cx';

const titleSizes = { base: '', lg: 'text-lg', xl: 'text-xl' } as const;

/** `aria-labelledby` its h2, so it is a landmark region. */
export function Section({
  id,
  title,
  size = 'xl',
  action,
  className,
  children,
}: {
  id: string;
  title: ReactNode;
  size?: keyof typeof titleSizes;
  action?: ReactNode;
  className?: string;
  children?: ReactNode;
}) {
  const heading = (
    <h2 id={id} className={cx(titleSizes[size], 'font-semibold text-slate-900')}>
      {title}
    </h2>
  );
  return (
    <section aria-labelledby={id} className={className}>
      {action ? (
        <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-2">
          {heading}
          {action}
        </div>
      ) : (
        heading
      )}
      {children}
    </section>
  );
}
