import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { MarkdownText } from './markdown';

const render = (text: string) => renderToStaticMarkup(createElement(MarkdownText, { text }));

describe('MarkdownText', () => {
  it('renders a GFM table in a box that scrolls on its own, with header cells and alignment', () => {
    const html = render('| Source | Items |\n| :--- | ---: |\n| Statutes | 1,204 |\n| Cases | 87 |');
    expect(html).toContain('<div role="group" aria-label="Table" tabindex="0" class="mt-3 overflow-x-auto');
    expect(html).toMatch(/<th scope="col" style="text-align:left"[^>]*>Source<\/th>/);
    expect(html).toMatch(/<td style="text-align:right"[^>]*>1,204<\/td>/);
    expect(html).not.toContain('|');
  });

  it('renders strikethrough, task lists and bare links', () => {
    const html = render('~~old~~ and https://example.org\n\n- [x] done');
    expect(html).toContain('<del>old</del>');
    expect(html).toContain('href="https://example.org"');
    expect(html).toContain('type="checkbox"');
  });

  it('still drops raw HTML, inside a table too', () => {
    const html = render('<script>alert(1)</script>\n\n<img src=x onerror=alert(1)>\n\n| a |\n| - |\n| <b onclick="x()">b</b> |');
    expect(html).not.toMatch(/<script|<img|onerror|onclick|<b>/);
  });

  it('still empties javascript: links, bare or in a table', () => {
    const html = render('[click](javascript:alert(1))\n\n| a |\n| - |\n| [x](JavaScript:alert(1)) |\n\n<javascript:alert(1)>');
    // The text stays (as text); no address keeps the scheme.
    expect(html).not.toMatch(/href="[^"]*javascript:/i);
    expect(html).toContain('click');
  });
});
