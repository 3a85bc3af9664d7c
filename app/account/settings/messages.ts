import { flashMessages, type FlashText } from '@/lib/site/flash';

// The settings page's `?done=` / `?error=`: a closed set, so a crafted link cannot put arbitrary text on the page.
const SETTINGS_DONE = {
  verified: 'Your email address is confirmed. You can buy plans and create API keys.',
  verification_sent: 'We sent a new verification link. It works once and expires in 24 hours.',
  already_verified: 'Your email address is already confirmed.',
  password_changed: 'Your password was changed. Every other session was signed out; this one continues.',
} as const;

const SETTINGS_ERRORS = {
  verify_first: 'Confirm your email address before buying a plan or creating API keys. Use the link we emailed you, or send a new one below.',
  too_many: 'Too many requests. Wait a few minutes and try again.',
  password_too_many: 'Too many attempts. Wait a few minutes and try again. Nothing was changed.',
  current_password: 'That is not your current password. Nothing was changed.',
  password_rule: 'Choose a password of at least 10 characters that is not a common one. Nothing was changed.',
  delete_confirmation: 'Type the email address of this account exactly to confirm the deletion. Nothing was deleted.',
  delete_password: 'That is not your password. Nothing was deleted.',
} as const;

export type SettingsDone = keyof typeof SETTINGS_DONE;
export type SettingsError = keyof typeof SETTINGS_ERRORS;
export type SettingsSection = 'email' | 'password' | 'delete';

/** Next to the form it is about, where the reloaded page is scrolled to. */
const ERROR_SECTIONS: Record<SettingsError, SettingsSection> = {
  verify_first: 'email',
  too_many: 'email',
  password_too_many: 'password',
  current_password: 'password',
  password_rule: 'password',
  delete_confirmation: 'delete',
  delete_password: 'delete',
};
const DONE_SECTIONS: Record<SettingsDone, SettingsSection> = {
  verified: 'email',
  verification_sent: 'email',
  already_verified: 'email',
  password_changed: 'password',
};

export const settingsDone = flashMessages(withTone(SETTINGS_DONE, 'success'), 'done');
export const settingsError = flashMessages(withTone(SETTINGS_ERRORS, 'error'), 'error');

function withTone<K extends string>(texts: Record<K, string>, tone: FlashText['tone']): Record<K, FlashText> {
  return Object.fromEntries(Object.entries<string>(texts).map(([code, text]) => [code, { tone, text }])) as Record<K, FlashText>;
}

export function parseSettingsMessage(done: unknown, error: unknown): (FlashText & { section: SettingsSection; code: string }) | null {
  const failed = settingsError.parse(error);
  if (failed) return { ...settingsError.messages[failed], section: ERROR_SECTIONS[failed], code: failed };
  const succeeded = settingsDone.parse(done);
  if (succeeded) return { ...settingsDone.messages[succeeded], section: DONE_SECTIONS[succeeded], code: succeeded };
  return null;
}
