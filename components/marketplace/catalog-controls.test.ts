import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { TagChips } from './catalog-controls';
import { EMPTY_CATALOG_STATE } from './catalog-url';

describe('TagChips', () => {
  it('reads each count with the right noun: "(1 knowledge base)", "(4 knowledge bases)"', () => {
    const html = renderToStaticMarkup(
      createElement(TagChips, {
        state: EMPTY_CATALOG_STATE,
        facets: [
          { tag: 'privacy', count: 1 },
          { tag: 'law', count: 4 },
          { tag: 'bulk', count: 1_200 },
        ],
      }),
    );
    expect(html).toContain('<span class="sr-only"> (1 knowledge base)</span>');
    expect(html).toContain('<span class="sr-only"> (4 knowledge bases)</span>');
    expect(html).toContain('<span class="sr-only"> (1,200 knowledge bases)</span>');
  });
});
