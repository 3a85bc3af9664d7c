import { describe, expect, it } from 'vitest';
import { flashMessages } from './flash';
import { accountPaths, marketplacePaths, publishPaths } from './paths';

describe('site paths', () => {
  it('encodes every id the same way', () => {
    expect(accountPaths.subscription('sub_1')).toBe('/account/subscriptions/sub_1');
    expect(accountPaths.subscription('a/b?c')).toBe('/account/subscriptions/a%2Fb%3Fc');
    expect(accountPaths.changePlan('sub_1')).toBe('/account/subscriptions/sub_1/change');
    expect(accountPaths.changePlan('sub_1', 'pln 2')).toBe('/account/subscriptions/sub_1/change?plan=pln%202');
    expect(accountPaths.renameKey('key#1')).toBe('/account/keys/key%231/rename');
    expect(marketplacePaths.knowledgeBase('kb_1/..')).toBe('/knowledge-bases/kb_1%2F..');
    expect(marketplacePaths.docsFor('kb&x')).toBe('/docs?kb=kb%26x');
    expect(publishPaths.content('kb_1')).toBe('/publish/listings/kb_1/content');
  });
});

describe('flash messages', () => {
  const flash = flashMessages({ saved: { tone: 'success', text: 'Saved.' } }, 'done');

  it('writes and reads its own parameter', () => {
    expect(flash.withFlash('/account/settings', 'saved')).toBe('/account/settings?done=saved');
    expect(flash.withFlash('/x?y=1', 'saved')).toBe('/x?y=1&done=saved');
    expect(flash.read('saved')).toEqual({ tone: 'success', text: 'Saved.' });
  });

  it('shows nothing for anything but a known code', () => {
    for (const value of [undefined, '', 'toString', 'Saved.', ['saved', 'saved']]) expect(flash.read(value)).toBeNull();
  });
});
