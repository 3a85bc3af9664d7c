import { deflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { joinFragments } from './emanual';
import { parseCsv, unzip } from './formats';
import { splitNqPage } from './nq-long';
import { isSectionHeading, paperMarkdown } from './qasper';

/** A little-endian record of `length` bytes with the given [offset, bytes, value] fields. */
function record(length: number, fields: Array<[number, 2 | 4, number]>): Buffer {
  const b = Buffer.alloc(length);
  for (const [at, size, value] of fields) {
    if (size === 2) b.writeUInt16LE(value, at);
    else b.writeUInt32LE(value, at);
  }
  return b;
}

/** A ZIP archive of the given entries (deflated, or stored), as any archiver writes one. */
function zipOf(entries: Array<{ name: string; data: string; store?: boolean }>): Buffer {
  const parts: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name);
    const raw = Buffer.from(e.data);
    const body = e.store ? raw : deflateRawSync(raw);
    const method = e.store ? 0 : 8;
    const local = record(30, [
      [0, 4, 0x04034b50],
      [8, 2, method],
      [18, 4, body.length],
      [22, 4, raw.length],
      [26, 2, name.length],
    ]);
    centrals.push(
      record(46, [
        [0, 4, 0x02014b50],
        [10, 2, method],
        [20, 4, body.length],
        [24, 4, raw.length],
        [28, 2, name.length],
        [42, 4, offset],
      ]),
      name,
    );
    parts.push(local, name, body);
    offset += local.length + name.length + body.length;
  }
  const directory = Buffer.concat(centrals);
  const end = record(22, [
    [0, 4, 0x06054b50],
    [8, 2, entries.length],
    [10, 2, entries.length],
    [12, 4, directory.length],
    [16, 4, offset],
  ]);
  return Buffer.concat([...parts, directory, end]);
}

describe('parseCsv', () => {
  it('reads quoted fields holding commas, newlines and doubled quotes', () => {
    const rows = parseCsv('\ufeffid,question,answer\r\n1,"Where, exactly?","Line one\nsaid ""hi"""\n2,plain,\n');
    expect(rows).toEqual([
      { id: '1', question: 'Where, exactly?', answer: 'Line one\nsaid "hi"' },
      { id: '2', question: 'plain', answer: '' },
    ]);
  });
});

describe('unzip', () => {
  it('returns the deflated and stored files, not the directories', () => {
    const files = unzip(
      zipOf([
        { name: 'dir/', data: '', store: true },
        { name: 'dir/a.json', data: '{"a":1}' },
        { name: 'b.txt', data: 'bee', store: true },
      ]),
    );
    expect([...files.keys()]).toEqual(['dir/a.json', 'b.txt']);
    expect(files.get('dir/a.json')!.toString()).toBe('{"a":1}');
    expect(files.get('b.txt')!.toString()).toBe('bee');
  });

  it('refuses what is not an archive', () => {
    expect(() => unzip(Buffer.from('not a zip'))).toThrow(/not a ZIP archive/);
  });
});

describe('joinFragments', () => {
  it('puts one space between fragments and none before punctuation', () => {
    expect(joinFragments(['When you press the', 'button in', 'Ambient Mode', ', the', ' screen  appears', '.', '(see', 'below)'])).toBe(
      'When you press the button in Ambient Mode, the screen appears. (see below)',
    );
  });
});

describe('splitNqPage', () => {
  it('takes the title before <H1> and writes attributes out of tag names', () => {
    expect(splitNqPage('Harry Potter - wikipedia <H1> Harry Potter </H1> <Table> <Tr> <Th_colspan="2"> Books </Th> </Tr> </Table>')).toEqual({
      title: 'Harry Potter',
      body: '<H1> Harry Potter </H1> <Table> <Tr> <Th colspan="2"> Books </Th> </Tr> </Table>',
    });
  });
});

describe('QASPER papers', () => {
  it('reads short unpunctuated lines as section headings and keeps sentences as paragraphs', () => {
    expect(isSectionHeading('Related Work')).toBe(true);
    expect(isSectionHeading('Level A: Offensive language Detection')).toBe(true);
    expect(isSectionHeading('Methodology ::: Unimodal Treatment ::: Images')).toBe(true);
    expect(isSectionHeading('We use a beam size of 5 for all models.')).toBe(false);
    expect(isSectionHeading('Not Offensive (NOT): Posts that do not contain offense or profanity;')).toBe(false);
    expect(isSectionHeading('word2vec features')).toBe(false);
    expect(paperMarkdown('QASPER paper 01', 'Introduction\nSocial media made it easier.\n\nData\nWe collected 14,100 tweets.')).toBe(
      '# QASPER paper 01\n\n## Introduction\n\nSocial media made it easier.\n\n## Data\n\nWe collected 14,100 tweets.\n',
    );
  });
});
