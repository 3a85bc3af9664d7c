/**
 * What a console form's server action answers when it does not redirect: per-field messages, or one for the form, and
 * the values as sent. React resets a form after its action, so the fields show `values` again rather than emptying
 * what the person typed.
 */
export interface FormState {
  fieldErrors: Record<string, string>;
  message?: string;
  values?: Record<string, string>;
}
