'use client';

/**
 * A select that submits its GET form when the choice changes (with JavaScript); without JavaScript the form's
 * <noscript> Apply button does the same. Keyboard users changing the value with arrow keys also trigger it.
 */
export function AutoSubmitSelect({
  id,
  name,
  defaultValue,
  className,
  options,
}: {
  id: string;
  name: string;
  defaultValue: string;
  className?: string;
  options: { value: string; label: string }[];
}) {
  return (
    <select id={id} name={name} defaultValue={defaultValue} className={className} onChange={(e) => e.currentTarget.form?.requestSubmit()}>
      {options.map((o) => (
        <option key={o.value} value={o.value}>
          {o.label}
        </option>
      ))}
    </select>
  );
}
