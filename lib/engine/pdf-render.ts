import { PDFDocument, StandardFonts, type PDFFont } from 'pdf-lib';
import { capture } from '@/lib/platform/arrays';

/** The seed's `*.pdf.txt` sources (`# Title`, `---page---` between pages) as real PDFs: their page citations are genuine. */
export interface PdfSource {
  title: string;
  pages: string[];
}

export function parsePdfSource(text: string): PdfSource {
  const normalised = text.replace(/\r\n?/g, '\n');
  const lines = normalised.split('\n');
  const first = lines.findIndex((l) => l.trim() !== '');
  const title = lines[first]?.replace(/^#\s*/, '').trim() ?? 'Untitled';
  const body = first >= 0 ? lines.slice(first + 1).join('\n') : '';
  const pages = body.split(/^\s*---page---\s*$/m).map((p) => p.trim());
  return { title, pages: pages.filter((p, i) => p !== '' || i === 0) };
}

const PAGE_WIDTH = 612;
const PAGE_HEIGHT = 792;
const MARGIN = 60;
const BODY_SIZE = 10.5;
const BODY_LEADING = 14;
const HEADING_SIZE = 14;
const TITLE_SIZE = 18;

const REPLACEMENTS: Record<string, string> = {
  '≥': '>=',
  '≤': '<=',
  '≠': '!=',
  '√': 'sqrt',
  '→': '->',
  '←': '<-',
  '−': '-',
  '×': 'x',
  '≈': '~',
  '∞': 'infinity',
  '\u2009': ' ',
  '\u202f': ' ',
  '\u00a0': ' ',
  π: 'pi',
  Δ: 'delta',
  μ: 'micro',
  '₂': '2',
  '₀': '0',
  '₁': '1',
  '³': '3',
  '⁴': '4',
  '½': '1/2',
  '¼': '1/4',
};

function makeSanitizer(font: PDFFont): (text: string) => string {
  const ok = new Map<string, boolean>();
  return (text) => {
    let out = '';
    for (const ch of text) {
      let good = ok.get(ch);
      if (good === undefined) {
        try {
          font.encodeText(ch);
          good = true;
        } catch {
          good = false;
        }
        ok.set(ch, good);
      }
      out += good ? ch : (REPLACEMENTS[ch] ?? '?');
    }
    return out;
  };
}

function wrap(text: string, font: PDFFont, size: number, width: number): string[] {
  const words = text.split(/\s+/).filter(Boolean);
  const lines: string[] = [];
  let line = '';
  for (const word of words) {
    const candidate = line ? `${line} ${word}` : word;
    if (line && font.widthOfTextAtSize(candidate, size) > width) {
      lines.push(line);
      line = word;
    } else line = candidate;
  }
  if (line) lines.push(line);
  return lines;
}

export async function renderPdfFromSource(source: PdfSource, options: { author?: string } = {}): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  pdf.setTitle(source.title);
  if (options.author) pdf.setAuthor(options.author);
  pdf.setProducer('Almanac seed');
  // Fixed dates keep the rendered bytes (and so the content hash) identical from one seed to the next.
  pdf.setCreationDate(new Date('2026-01-01T00:00:00Z'));
  pdf.setModificationDate(new Date('2026-01-01T00:00:00Z'));
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const clean = makeSanitizer(regular);
  const usable = PAGE_WIDTH - 2 * MARGIN;

  source.pages.forEach((pageSource, index) => {
    const page = pdf.addPage([PAGE_WIDTH, PAGE_HEIGHT]);
    let y = PAGE_HEIGHT - MARGIN;
    const draw = (text: string, font: PDFFont, size: number, leading: number) => {
      for (const line of wrap(clean(text), font, size, usable)) {
        // Text that does not fit is drawn lower rather than lost; sources are sized to fit one page.
        page.drawText(line, { x: MARGIN, y, size, font });
        y -= leading;
      }
    };
    if (index === 0) {
      draw(source.title, bold, TITLE_SIZE, TITLE_SIZE * 1.3);
      y -= BODY_LEADING;
    }
    for (const block of pageSource.split(/\n\s*\n/)) {
      let text = block.trim();
      if (!text) continue;
      const heading = /^#{1,6}\s+(.*)$/m.exec(text.split('\n')[0] ?? '');
      if (heading) {
        y -= 4;
        draw(capture(heading, 1), bold, HEADING_SIZE, HEADING_SIZE * 1.3);
        y -= 4;
        text = text.split('\n').slice(1).join('\n').trim();
        if (!text) continue;
      }
      draw(text.replace(/\s+/g, ' '), regular, BODY_SIZE, BODY_LEADING);
      y -= BODY_LEADING * 0.8;
    }
  });
  return pdf.save({ useObjectStreams: true });
}
