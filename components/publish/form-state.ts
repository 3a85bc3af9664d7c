/** What a console form's server action answers when it does not redirect: per-field messages, or one for the form. */
export interface FormState {
  fieldErrors: Record<string, string>;
  message?: string;
}
