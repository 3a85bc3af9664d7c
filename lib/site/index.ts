/**
 * The web site's plumbing shared by pages, actions and emails: the table of its paths, the flash messages shown after
 * a redirect, and the helper that runs a form's action once. Public surface.
 */
export { accountPaths, marketplacePaths, publishPaths } from './paths';
export { readForm, runOncePerForm } from './form-action';
export { flashMessages, type FlashText } from './flash';
