import type { InputHTMLAttributes, ReactNode, TextareaHTMLAttributes } from 'react';
import { cx } from './cx';

interface FieldLabels {
  label: string;
  name: string;
  error?: string;
  hint?: string;
  className?: string;
  id?: string;
}

const controlClass = (error?: string) =>
  cx(
    'mt-1 block w-full rounded-lg border bg-white px-3 py-2 text-sm text-slate-900 shadow-sm placeholder:text-slate-500',
    error ? 'border-red-600' : 'border-slate-300',
  );

/** The label, hint and error around one control, tied to it via aria-describedby so screen readers read both. */
function FieldShell({
  label,
  name,
  error,
  hint,
  className,
  id: givenId,
  control,
}: FieldLabels & { control: (aria: { id: string; 'aria-invalid'?: true; 'aria-describedby'?: string }) => ReactNode }) {
  const id = givenId ?? `field-${name}`;
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  return (
    <div className={className}>
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      {control({ id, 'aria-invalid': error ? true : undefined, 'aria-describedby': [hintId, errorId].filter(Boolean).join(' ') || undefined })}
      {hint && !error ? (
        <p id={hintId} className="mt-1 text-xs text-slate-600">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={errorId} className="mt-1 text-sm font-medium text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}

export function Field({ label, name, error, hint, className, ...input }: InputHTMLAttributes<HTMLInputElement> & FieldLabels) {
  return (
    <FieldShell
      {...{ label, name, error, hint, className }}
      id={input.id}
      control={(aria) => <input name={name} className={controlClass(error)} {...aria} {...input} id={aria.id} />}
    />
  );
}

export function TextAreaField({ label, name, error, hint, className, ...input }: TextareaHTMLAttributes<HTMLTextAreaElement> & FieldLabels) {
  return (
    <FieldShell
      {...{ label, name, error, hint, className }}
      id={input.id}
      control={(aria) => <textarea name={name} className={controlClass(error)} {...aria} {...input} id={aria.id} />}
    />
  );
}
