import { describe, expect, it } from 'vitest';
import { regionalSpelling } from './regional-spellings';

describe('regional spellings', () => {
  it('pairs British and American spellings both ways', () => {
    expect(regionalSpelling('diarrhoea')).toBe('diarrhea');
    expect(regionalSpelling('diarrhea')).toBe('diarrhoea');
    expect(regionalSpelling('colour')).toBe('color');
    expect(regionalSpelling('Behavior')).toBe('behaviour');
    expect(regionalSpelling('paediatric')).toBe('pediatric');
  });
  it('pairs an "-isation" word the list lacks by rule', () => {
    expect(regionalSpelling('randomisation')).toBe('randomization');
    expect(regionalSpelling('randomizations')).toBe('randomisations');
  });
  it('leaves words without a second spelling, and pairs whose other spelling is mostly another word', () => {
    expect(regionalSpelling('vaccine')).toBeNull();
    expect(regionalSpelling('station')).toBeNull();
    expect(regionalSpelling('tire')).toBeNull();
    expect(regionalSpelling('draft')).toBeNull();
    expect(regionalSpelling('ton')).toBeNull();
    // Snowball stems "organized" to "organ": the British spelling is not looked up as it.
    expect(regionalSpelling('organised')).toBeNull();
    expect(regionalSpelling('organized')).toBe('organised');
  });
});
