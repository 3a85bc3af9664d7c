// React resets a form after its action, so a console form shows `values` again rather than emptying what was typed.
export interface FormState {
  fieldErrors: Record<string, string>;
  message?: string;
  values?: Record<string, string>;
}
