'use client';

import { useRef } from 'react';

const BROWSING_KEYS = new Set(['ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight', 'Home', 'End', 'PageUp', 'PageDown']);

// Submits its GET form on a choice (without JavaScript, the form's <noscript> Apply button). Arrow keys on the closed
// select only browse, since a reload per step would lose the place: Enter, or leaving it, submits.
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
  const browsing = useRef(false);
  const pending = useRef(false);
  const submit = (select: HTMLSelectElement) => {
    pending.current = false;
    select.form?.requestSubmit();
  };
  return (
    <select
      id={id}
      name={name}
      defaultValue={defaultValue}
      className={className}
      onKeyDown={(e) => {
        if (BROWSING_KEYS.has(e.key)) browsing.current = true;
        else if (e.key === 'Enter' && pending.current) {
          e.preventDefault();
          submit(e.currentTarget);
        }
      }}
      onChange={(e) => {
        if (browsing.current) {
          browsing.current = false;
          pending.current = true;
          return;
        }
        submit(e.currentTarget);
      }}
      onBlur={(e) => {
        browsing.current = false;
        if (pending.current) submit(e.currentTarget);
      }}
    >
      {options.map((o) => (
        <option key={o.value} value={o.value}>
          {o.label}
        </option>
      ))}
    </select>
  );
}
