import { describe, expect, it } from 'vitest';
import { composeExtractiveAnswer, NO_ANSWER_TEXT } from './answer';
import { judgeLexically } from './answerable';
import { analyseQuestion } from './question';
import { itemAt } from '@/lib/platform/arrays';
import { passageEvidence } from './relevance-gate';
import { SENTENCE_FEATURES } from './sentence-features';
import { rankSentences, type RankedCandidate } from './sentence-ranker';
import { chooseSentences, selectSentences } from './sentence-selection';
import type { QueryTerm, RetrievedChunk } from './types';

/** The statements chosen for a question, as the composer chooses them once the gate has let it through. */
function select(terms: QueryTerm[], passages: RetrievedChunk[], query = '') {
  const q = analyseQuestion(query, terms);
  return selectSentences(q, passages, rankSentences(q, passages));
}
const relevant = (terms: QueryTerm[], passages: RetrievedChunk[], query = '') => judgeLexically(analyseQuestion(query, terms), passages).answerable;

const term = (word: string, lexeme: string, idf: number, docFreq = 1): QueryTerm => ({ word, lexeme, idf, docFreq });
const chunk = (id: number, content: string, score: number, extra: Partial<RetrievedChunk> = {}): RetrievedChunk => ({
  chunkId: id,
  documentId: `doc_${id}`,
  documentTitle: `Doc ${id}`,
  page: null,
  heading: null,
  content,
  tokenCount: 10,
  score,
  ...extra,
});

describe('extractive answers', () => {
  const terms = [term('glacier', 'glacier', 3), term('retreat', 'retreat', 2.5), term('rate', 'rate', 1)];

  it('picks the sentence carrying the query terms, cites it, and cuts nothing out of its excerpt', () => {
    const passages = [
      chunk(1, 'Unrelated opening sentence about budgets. Glaciers retreat at a rate of 30 metres a year. Closing remark on staffing levels.', 9),
      chunk(2, 'The retreat rate of the glacier doubled after 1990.', 8.8, { page: 3 }),
    ];
    const answer = composeExtractiveAnswer('How fast do glaciers retreat?', terms, passages);
    expect(answer.answer.startsWith('Glaciers retreat at a rate of 30 metres a year. [1]')).toBe(true);
    expect(answer.citations[0]).toEqual({ document_id: 'doc_1', title: 'Doc 1', excerpt: 'Glaciers retreat at a rate of 30 metres a year.', page: null });
    // The second document covers the whole question on its own, so it may be cited too, with its page.
    for (const c of answer.citations.slice(1))
      expect(c).toEqual({ document_id: 'doc_2', title: 'Doc 2', excerpt: 'The retreat rate of the glacier doubled after 1990.', page: 3 });
  });

  it('a list ends where the next list begins, so the second list is a statement of its own', () => {
    const t = [
      term('quadratic', 'quadrat', 2.5),
      term('discriminant', 'discrimin', 3),
      term('negative', 'negat', 2),
      term('real', 'real', 1.5),
      term('solutions', 'solut', 1),
    ];
    const passages = [
      chunk(
        1,
        'Every quadratic equation can be solved with the quadratic formula, which gives its real solutions:\nx = (-b ± √(b^2 - 4ac)) / (2a)\nHere a, b and c are the coefficients of the equation.\nThe discriminant tells how many real solutions there are:\n- discriminant positive: two real solutions;\n- discriminant zero: one real solution;\n- discriminant negative: no real solutions.',
        9,
      ),
    ];
    const answer = composeExtractiveAnswer('How many real solutions does a quadratic have when the discriminant is negative?', t, passages);
    expect(answer.answer).toContain('discriminant negative: no real solutions');
  });

  it('a short sentence closing a list item is read with its item, not with the next one', () => {
    const t = [
      term('system', 'system', 1),
      term('called', 'call', 0.5),
      term('lines', 'line', 1),
      term('parallel', 'parallel', 3),
      term('solution', 'solut', 2),
    ];
    const passages = [
      chunk(
        1,
        'So a system of two linear equations has one solution, no solution or infinitely many solutions. - Different slopes: the lines intersect once. The system is called consistent. - Same slope, different intercepts: the lines are parallel and there is no solution. The system is called inconsistent. - Same slope and intercept: the same line, infinitely many solutions. The system is called dependent.',
        9,
      ),
    ];
    const answer = composeExtractiveAnswer('What is a system called when its lines are parallel and it has no solution?', t, passages);
    expect(answer.answer.split(' [1]')[0]).toContain('The system is called inconsistent.');
    expect(answer.answer).not.toContain('called consistent. - Same slope');
  });

  it('a question asking for a day is not answered by statements without one (and so costs nothing)', () => {
    const t = [term('organisations', 'organis', 2), term('comply', 'compli', 2.5), term('gdpr', 'gdpr', 3)];
    const without = [chunk(1, 'Every organisation must comply with the GDPR and keep records of its processing.', 9)];
    expect(composeExtractiveAnswer('From what date have organisations had to comply with the GDPR?', t, without).answer).toBe(NO_ANSWER_TEXT);
    const withDay = [chunk(1, 'Organisations have had to comply with the GDPR since 25 May 2018.', 9)];
    expect(composeExtractiveAnswer('From what date have organisations had to comply with the GDPR?', t, withDay).answer).toContain('25 May 2018');
  });

  it('a day given as a term counted from another date answers, alone', () => {
    const t = [term('contract', 'contract', 3), term('initial', 'initi', 2.5), term('term', 'term', 1), term('expire', 'expir', 2.5)];
    const passages = [
      chunk(
        1,
        'The initial term of this contract and its expiry are described in the schedule of terms.\n\nThe initial term commences on the Effective Date and will continue in effect until five (5) years from such date.',
        9,
      ),
    ];
    const answer = composeExtractiveAnswer("On what date will the contract's initial term expire?", t, passages).answer;
    expect(answer).toContain('until five (5) years from such date');
    expect(answer).not.toContain('schedule of terms');
    // With no statement at all there is nothing to fall back on, and no error either.
    expect(select(t, [], "On what date will the contract's initial term expire?")).toEqual([]);
  });

  it('a caption or a heading line states nothing and is never a statement of the answer', () => {
    const t = [term('columbian', 'columbian', 3), term('exchange', 'exchang', 2.5)];
    const passages = [
      chunk(
        1,
        'Examples of the Columbian Exchange\nMaize (corn), potatoes; Wheat, rice, sugar cane\nThe historian Alfred Crosby coined the term Columbian Exchange in 1972 for the transfer of plants, animals and diseases between the hemispheres.',
        9,
      ),
    ];
    const answer = composeExtractiveAnswer('What was the Columbian Exchange?', t, passages);
    expect(answer.answer.startsWith('The historian Alfred Crosby coined the term Columbian Exchange')).toBe(true);
    expect(answer.answer).not.toContain('Examples of the Columbian Exchange [');
  });

  it('a contents entry, a "See also" line or a caption said over and over is never a statement of the answer', () => {
    const t = [term('season', 'season', 2.5), term('seven', '7', 3), term('premiere', 'premier', 3), term('thrones', 'throne', 3)];
    const answer = (content: string) => composeExtractiveAnswer('When did season 7 of Game of Thrones premiere?', t, [chunk(1, content, 9)]).answer;
    const premiere = 'The seventh season of Game of Thrones premiered on HBO on July 16, 2017.';
    for (const junk of [
      'Game of Thrones (season 7)',
      '3.2 Season 7 (2017)',
      'See also: Game of Thrones: Season 7 (soundtrack), the season 7 premiere list.',
      'Premiere of season 7 of Game of Thrones map Premiere of season 7 of Game of Thrones map Premiere of season 7 of Game of Thrones map',
    ]) {
      const text = answer(`${junk}\n${premiere}`);
      expect(text.startsWith(premiere)).toBe(true);
      expect(text).not.toContain(junk);
    }
    // A bracket closes a line after a full stop, and a short line closed by one is still read.
    expect(answer('Season 7 premiered on July 16, 2017 (on HBO.)').startsWith('Season 7 premiered on July 16, 2017')).toBe(true);
  });

  it('does not cite a second document that only shares a word with the question', () => {
    const passages = [
      chunk(1, 'Glaciers retreat at a rate of 30 metres a year in the northern valleys.', 9),
      chunk(2, 'The interest rate on savings accounts rose twice last year.', 3),
    ];
    const answer = composeExtractiveAnswer('At what rate do glaciers retreat?', terms, passages);
    expect(answer.citations.map((c) => c.document_id)).toEqual(['doc_1']);
  });

  it('cites a second document only when its statement covers the question as fully as the first one', () => {
    const q = analyseQuestion('At what rate do glaciers retreat?', terms);
    // The second passage holds every word of the question, but its statement only two of them: it does not answer alone.
    const read = [
      chunk(1, 'Glaciers retreat at a rate of 30 metres a year.', 9),
      chunk(2, 'Glacier retreat doubled after 1990. The rate is measured by satellite.', 8.9),
    ];
    const evidence = read.map((p) => passageEvidence(q, p));
    const candidate = (passage: number, text: string, score: number, own: number): RankedCandidate => {
      const start = itemAt(read, passage).content.indexOf(text);
      const features = SENTENCE_FEATURES.map((f) => (f === 'own coverage' ? own : 0));
      return {
        passage,
        text,
        span: { start, end: start + text.length },
        excerpt: { start, end: start + text.length },
        context: null,
        score,
        terms: new Set(text.toLowerCase().split(/\W+/)),
        features,
      };
    };
    const lead = candidate(0, 'Glaciers retreat at a rate of 30 metres a year.', 10, 1);
    const partial = candidate(1, 'Glacier retreat doubled after 1990.', 9.9, 0.85);
    expect(chooseSentences(q, read, evidence, [lead, partial]).map((c) => c.passage)).toEqual([0]);
    const whole = candidate(1, 'The rate is measured by satellite.', 9.9, 1);
    expect(chooseSentences(q, read, evidence, [lead, whole]).map((c) => c.passage)).toEqual([0, 1]);
  });

  it('the label of a paragraph supplies the entity asked for ("which case") and is shown as context', () => {
    const caseTerms = [term('case', 'case', 1), term('established', 'establish', 1.5), term('judicial', 'judici', 2.5), term('review', 'review', 2)];
    const passages = [
      chunk(
        1,
        'Marbury v. Madison (1803). Marbury had been appointed a justice of the peace. The case established judicial review.\n\nMcCulloch v. Maryland (1819). Maryland tried to tax the Second Bank.',
        9,
      ),
      chunk(2, 'Judicial review applies only to actual cases and controversies.', 8),
    ];
    const answer = composeExtractiveAnswer('Which Supreme Court case established judicial review?', caseTerms, passages);
    expect(answer.answer.startsWith('Marbury v. Madison (1803): The case established judicial review. [1]')).toBe(true);
    // The excerpt runs from the label to the sentence: verbatim, and it shows where the name comes from.
    expect(answer.citations[0]?.excerpt).toBe(
      'Marbury v. Madison (1803). Marbury had been appointed a justice of the peace. The case established judicial review.',
    );
  });

  it('"how long" is answered by the duration under the label that names what was asked', () => {
    const senateTerms = [term('long', 'long', 0.5), term('senator', 'senat', 2.5), term('term', 'term', 1.5), term('office', 'offic', 1)];
    const passages = [
      chunk(
        1,
        'Representative: at least 25 years old. Term of two years.\n\nSenator: at least 30 years old, a citizen for at least 9 years. Term of six years, with one third of the Senate elected every two years.\n\nPresident: at least 35 years old. Term of four years.',
        9,
      ),
    ];
    const answer = composeExtractiveAnswer("How long is a senator's term of office?", senateTerms, passages);
    expect(answer.answer.split(' [1]')[0]).toBe('Senator: Term of six years, with one third of the Senate elected every two years.');
  });

  it('the words of the document title that a question repeats count for every statement of that document', () => {
    // Asked as buyers ask about a page: the show's name is the title, not what tells one character from another.
    const t = [
      term('voices', 'voic', 2),
      term('marta', 'marta', 3),
      term('lantern', 'lantern', 2.5),
      term('street', 'street', 1.5),
      term('bakery', 'bakeri', 2.5),
    ];
    const content =
      'Tomas Reyes (voiced by Dev Mistry) is a regular customer of the Lantern Street Bakery who arrives at six every morning.\n\nMarta Oyelaran (voiced by Ines Caldwell) is the eldest daughter of the family and runs the morning shift.';
    const answer = composeExtractiveAnswer('Who voices Marta in The Lantern Street Bakery?', t, [
      chunk(1, content, 9, { heading: 'The Lantern Street Bakery > Characters' }),
    ]);
    expect(answer.answer.split(' [1]')[0]).toBe('Marta Oyelaran (voiced by Ines Caldwell) is the eldest daughter of the family and runs the morning shift.');
  });

  it('a statement under another label than the one asked about is never a follow-up ("Term of two years." is the House)', () => {
    // The seeded document's own paragraph and the weights retrieval gave its words.
    const t = [term('long', 'long', 3.75), term('senator', 'senat', 1.91), term('term', 'term', 2.65), term('office', 'offic', 1.72)];
    const content =
      'The Constitution sets minimum qualifications for the elected federal offices.\n\nRepresentative: at least 25 years old, a citizen for at least 7 years, and an inhabitant of the state represented. Term of two years.\n\nSenator: at least 30 years old, a citizen for at least 9 years, and an inhabitant of the state represented. Term of six years, with one third of the Senate elected every two years.\n\nPresident: at least 35 years old, a natural born citizen. Term of four years.';
    const answer = composeExtractiveAnswer("How long is a senator's term of office?", t, [
      chunk(1, content, 9, { heading: 'The Constitution at a Glance > Qualifications for federal office' }),
    ]);
    expect(answer.answer.split(' [1]')[0]).toBe('Senator: Term of six years, with one third of the Senate elected every two years.');
    expect(answer.answer).not.toContain('Term of two years');
    expect(answer.answer).not.toContain('Term of four years');
  });

  it('a finding outranks the aim that restates the question', () => {
    const aimTerms = [term('exercise', 'exercis', 2), term('blood', 'blood', 1.5), term('pressure', 'pressur', 1.5), term('lower', 'lower', 1)];
    const passages = [
      chunk(
        1,
        'The aim of this study was to assess whether exercise lowers blood pressure. Twelve weeks of brisk walking lowered systolic blood pressure by 5 mm Hg compared with usual care.',
        9,
      ),
    ];
    const answer = composeExtractiveAnswer('Does exercise lower blood pressure?', aimTerms, passages);
    expect(answer.answer.startsWith('Twelve weeks of brisk walking lowered systolic blood pressure')).toBe(true);
  });

  it("a yes-or-no question about a study is answered by its conclusion, not by the background under the study's title words", () => {
    const studyTerms = [
      term('statins', 'statin', 3),
      term('pretreatment', 'pretreat', 2.5),
      term('improve', 'improv', 1.2),
      term('outcome', 'outcom', 1.2),
      term('stroke', 'stroke', 2),
    ];
    const study = { documentId: 'doc_study' };
    const passages = [
      chunk(
        1,
        'Statins given before a stroke might improve clinical outcome after stroke through effects beyond lowering cholesterol. Whether pretreatment with statins improves outcome is not known.',
        9,
        { ...study, heading: 'Abstract > Background' },
      ),
      chunk(
        2,
        'Of 324 patients, 62 were on statins before the stroke. Pretreatment with statins was associated with a better functional outcome at 90 days (odds ratio 2.3, p = 0.01).',
        7,
        { ...study, heading: 'Abstract > Results' },
      ),
      chunk(3, 'These findings suggest that statin pretreatment may improve outcome after ischaemic stroke.', 6, {
        ...study,
        heading: 'Abstract > Conclusions',
      }),
    ];
    const answer = composeExtractiveAnswer('Does pretreatment with statins improve clinical outcome after stroke?', studyTerms, passages);
    expect(answer.answer.split(' [1]')[0]).toMatch(/^(Pretreatment with statins was associated|These findings suggest)/);
  });

  it('in an abstract without headings, a yes-or-no question is answered by the sentence worded as a finding, not by the background', () => {
    const aceTerms = [
      term('ace', 'ace', 2.5),
      term('inhibitors', 'inhibitor', 2.5),
      term('cause', 'caus', 1),
      term('cough', 'cough', 3),
      term('older', 'older', 1.5),
      term('patients', 'patient', 0.8),
    ];
    const passages = [
      chunk(
        1,
        'ACE inhibitors are widely prescribed to older patients, and cough is a recognised side effect of ACE inhibitors. Of 412 older patients followed for a year, 38 (9%) developed a persistent dry cough, most of them within the first month.',
        9,
      ),
    ];
    const answer = composeExtractiveAnswer('Do ACE inhibitors cause cough in older patients?', aceTerms, passages);
    expect(answer.answer.split(' [1]')[0]).toMatch(/^Of 412 older patients followed for a year, 38 \(9%\) developed/);
  });

  it("another study's conclusion does not answer a question about the study that matches it best", () => {
    const studyTerms = [
      term('statins', 'statin', 3),
      term('pretreatment', 'pretreat', 2.5),
      term('improve', 'improv', 1.2),
      term('outcome', 'outcom', 1.2),
      term('stroke', 'stroke', 2),
    ];
    const passages = [
      chunk(
        1,
        'Statins lower cholesterol, and their use before a stroke has been linked to smaller infarcts in animal models. We studied 324 consecutive patients with acute stroke, 62 of them on statin pretreatment.',
        9,
        { documentId: 'doc_statins', heading: 'Abstract 1 > Background' },
      ),
      chunk(2, 'Oestrogen pretreatment does not appear to improve IVF outcomes in poor responders.', 6, {
        documentId: 'doc_ivf',
        heading: 'Abstract 2 > Conclusions',
      }),
    ];
    const answer = composeExtractiveAnswer('Does pretreatment with statins improve clinical outcome after stroke?', studyTerms, passages);
    expect(answer.citations[0]?.document_id).toBe('doc_statins');
    expect(answer.answer).not.toContain('IVF');
  });

  it('drops near-duplicate sentences', () => {
    const passages = [
      chunk(1, 'Glaciers retreat at a measured rate each year in the Alps.', 9),
      chunk(2, 'Glaciers retreat at a measured rate each year in the Alps!', 8),
    ];
    expect(select(terms, passages)).toHaveLength(1);
  });

  it('a sentence introducing a list brings the list items', () => {
    const passages = [
      chunk(1, 'Glacier retreat is measured in three ways:\n\nRepeat photography.\n\nGPS stakes drilled into the ice.\n\nSatellite altimetry.', 5),
    ];
    const [first] = select(terms, passages);
    expect(first?.text).toBe('Glacier retreat is measured in three ways:\n\nRepeat photography.\n\nGPS stakes drilled into the ice.\n\nSatellite altimetry.');
  });

  it('quantity questions prefer the sentence with a number', () => {
    const passages = [chunk(1, 'The glacier retreat rate is monitored by the survey team using stakes. The glacier retreat reached 30 metres in 2022.', 5)];
    const [first] = select(terms, passages, 'How many metres did the glacier retreat?');
    expect(first?.text).toBe('The glacier retreat reached 30 metres in 2022.');
  });

  it("a table's header row is the context of its rows, never the answer", () => {
    const taxTerms = [term('carbon', 'carbon', 2), term('tax', 'tax', 2), term('trading', 'trade', 2)];
    const passages = [chunk(1, 'Feature; Carbon tax; Trading system\nPrice; Set by the tax; Set by trading\nQuantity; Adjusts; Capped', 5)];
    const texts = select(taxTerms, passages, 'How do a carbon tax and trading differ?').map((c) => c.text);
    expect(texts).not.toContain('Feature; Carbon tax; Trading system');
    expect(texts[0]).toBe('Price; Set by the tax; Set by trading');
  });

  it('prefers the statement that repeats the numbers the question gives (the same instance)', () => {
    const rideTerms = [term('ride', 'ride', 2), term('kilometres', 'kilometr', 1.5), term('cost', 'cost', 1.5)];
    const passages = [
      chunk(1, 'Every taxi ride costs $3.50 to start plus $2.20 for each kilometre of the ride. The fare for 12 kilometres costs $29.90 in all.', 5),
    ];
    const [first] = select(rideTerms, passages, 'How much does a ride of 12 kilometres cost?');
    expect(first?.text).toBe('The fare for 12 kilometres costs $29.90 in all.');
  });

  it('a statement that carries the number asked for may answer the sentence before it without repeating its words', () => {
    const vitalTerms = [term('vital', 'vital', 3), term('trial', 'trial', 1.5), term('participants', 'particip', 1)];
    const passages = [chunk(1, 'The VITAL trial tested vitamin D against placebo in healthy volunteers. Enrolment reached 25,871 adults.', 5)];
    const texts = select(vitalTerms, passages, 'How many participants took part in the VITAL trial?').map((c) => c.text);
    expect(texts).toContain('Enrolment reached 25,871 adults.');
    // Without a number to carry, such a sentence is no candidate.
    const plain = [chunk(1, 'The VITAL trial tested vitamin D against placebo in healthy volunteers. Enrolment closed early.', 5)];
    expect(select(vitalTerms, plain, 'How many participants took part in the VITAL trial?').map((c) => c.text)).not.toContain('Enrolment closed early.');
  });

  it('a negated question is answered by the statement that says what does not hold, not by its opposite', () => {
    const t = [
      term('proportion', 'proport', 2),
      term('people', 'peopl', 1),
      term('high', 'high', 1),
      term('blood', 'blood', 1.5),
      term('pressure', 'pressur', 1.5),
      term('single', 'singl', 2),
      term('identifiable', 'identifi', 3),
      term('cause', 'caus', 2),
    ];
    const passages = [
      chunk(
        1,
        'About 90 to 95% of adults with hypertension have primary hypertension, which has no single identifiable cause and arises from an interaction of genetics, age and lifestyle factors. The remaining 5 to 10% have secondary hypertension caused by an identifiable, and sometimes curable, condition.',
        9,
      ),
    ];
    const answer = composeExtractiveAnswer('What proportion of people with high blood pressure have no single identifiable cause?', t, passages);
    expect(answer.answer.split(' [1]')[0]).toContain('About 90 to 95%');
  });

  it('a list item is shown with the line introducing its list, once for several items of one list', () => {
    const t = [term('child', 'child', 1), term('mild', 'mild', 2.5), term('cold', 'cold', 3), term('vaccinated', 'vaccin', 0.5), term('fever', 'fever', 2)];
    const content = [
      'Many situations are mistakenly treated as contraindications.',
      'The following are not reasons to withhold vaccines:',
      'Mild acute illness, such as a cold, mild diarrhoea or an ear infection, with or without a low-grade fever.',
      'Current antibiotic therapy.',
      'A mild local reaction or a fever after a previous dose.',
    ].join('\n');
    const answer = composeExtractiveAnswer('Can a child with a mild cold and a fever still be vaccinated?', t, [chunk(1, content, 9)]);
    expect(answer.answer.startsWith('The following are not reasons to withhold vaccines: Mild acute illness, such as a cold')).toBe(true);
    expect(answer.answer.match(/The following are not reasons/g)).toHaveLength(1);
    // The excerpt runs from the introduction to the item, verbatim.
    expect(answer.citations[0]?.excerpt).toBe(content.slice(content.indexOf('The following'), content.indexOf('\nCurrent')));
  });

  it('a table row is shown with its columns named, its excerpt still the verbatim row', () => {
    const t = [term('reading', 'read', 1), term('stage', 'stage', 2), term('hypertension', 'hypertens', 1.5)];
    const content =
      'Category; Systolic (mm Hg); ; Diastolic (mm Hg)\nStage 1 hypertension; 130–139; or; 80–89\nStage 2 hypertension; 140 or higher; or; 90 or higher';
    const answer = composeExtractiveAnswer('What reading counts as stage 2 hypertension?', t, [chunk(1, content, 9)]);
    expect(answer.answer.startsWith('Category: Stage 2 hypertension; Systolic (mm Hg): 140 or higher; or; Diastolic (mm Hg): 90 or higher [1]')).toBe(true);
    expect(answer.citations[0]?.excerpt).toBe('Stage 2 hypertension; 140 or higher; or; 90 or higher');
  });

  it('names the columns under a header of questions, and of a row whose first cell holds semicolons of its own', () => {
    const t = [term('hospital', 'hospit', 3), term('records', 'record', 2), term('notify', 'notifi', 1.5)];
    const content = [
      'Scenario; Notify authority?; Notify individuals?',
      'Encrypted laptop lost; key not compromised; backup available; No; No',
      'Hospital patient records unavailable for 30 hours after a cyber-attack; Yes; Yes',
    ].join('\n\n');
    const lost = composeExtractiveAnswer(
      'Must we notify anyone when an encrypted laptop with a backup is lost?',
      [...t, term('laptop', 'laptop', 3)],
      [chunk(1, content, 9)],
    );
    expect(lost.answer).toContain('Scenario: Encrypted laptop lost; key not compromised; backup available; Notify authority?: No; Notify individuals?: No');
    const hospital = composeExtractiveAnswer('Must a hospital notify anyone when its records are unavailable?', t, [chunk(1, content, 9)]);
    expect(hospital.answer.startsWith('Scenario: Hospital patient records unavailable for 30 hours after a cyber-attack; Notify authority?: Yes')).toBe(true);
    expect(hospital.citations[0]?.excerpt).toBe('Hospital patient records unavailable for 30 hours after a cyber-attack; Yes; Yes');
  });

  it('a statement that opens with its own label is not prefixed with it again', () => {
    const t = [term('states', 'state', 1), term('ratify', 'ratifi', 2), term('amendments', 'amend', 1.5), term('legislatures', 'legislatur', 2.5)];
    const passages = [
      chunk(
        1,
        'By state legislatures: ratification by the legislatures of three fourths of the states (38 of 50 today). Twenty-six amendments were ratified this way.',
        9,
      ),
    ];
    const answer = composeExtractiveAnswer('How many state legislatures must ratify amendments?', t, passages);
    expect(answer.answer).toContain('38 of 50');
    expect(answer.answer).not.toContain('By state legislatures: By state legislatures');
  });

  it('refuses when the passages hold too little of the question', () => {
    const wide = [term('glacier', 'glacier', 1), term('football', 'footbal', 6, 0), term('cup', 'cup', 6, 0)];
    const passages = [chunk(1, 'The glacier is large.', 3)];
    expect(relevant(wide, passages)).toBe(false);
    expect(composeExtractiveAnswer('glacier football cup', wide, passages)).toMatchObject({ answer: NO_ANSWER_TEXT, citations: [] });
    expect(relevant(terms, [chunk(1, 'Glaciers retreat quickly.', 3)])).toBe(true);
    // A question made only of framing words names nothing.
    const still = [term('still', 'still', 2)];
    expect(relevant(still, [chunk(1, 'The bill still becomes law.', 3)])).toBe(false);
  });

  it('when most of the question is unknown to the knowledge base, the words it shares must stand together', () => {
    // "How long should sourdough bread proof overnight?" asked of medical abstracts: "proof" and "overnight" occur.
    const bread = [term('sourdough', 'sourdough', 7.6, 0), term('bread', 'bread', 7.6, 0), term('proof', 'proof', 5.7), term('overnight', 'overnight', 6)];
    const scattered = chunk(1, 'Proof-of-concept study with a placebo run-in period. Patients fasted overnight before each visit and were seen weekly.', 6);
    expect(relevant(bread, [scattered])).toBe(false);
    // The same shared words in one sentence are evidence enough.
    expect(relevant(bread, [chunk(1, 'Leave the dough to proof overnight in a cool place before baking it the next morning.', 6)])).toBe(true);
  });
});

describe('back matter', () => {
  it('a reference list or "See also" section answers nothing; a section merely starting with such a word does', async () => {
    const { isBackMatter } = await import('./back-matter');
    expect(['References ( edit )', 'Article > See also', 'Notes and references', '2. Einzelnachweise', 'Liens externes'].every(isBackMatter)).toBe(true);
    expect(['Notes on dosing', 'Sources of funding for the study', 'Article > History', null].some(isBackMatter)).toBe(false);
  });
});

describe('notices about the document', () => {
  it('a disclaimer is never an answer, however many words it shares with the question', async () => {
    const { isDisclaimer } = await import('./back-matter');
    expect(
      [
        'Sample content written for the demo marketplace by Civic Texts Press.',
        'General information, not individual dietary or medical advice.',
        'Eine kurze Illustration, keine Rechts- oder Fachberatung.',
      ].every(isDisclaimer),
    ).toBe(true);
    expect(['Employers need not follow the advice of the committee.', 'The tax is not an official measure of poverty.'].some(isDisclaimer)).toBe(false);
    const terms = [term('constitution', 'constitut', 3), term('written', 'written', 2)];
    const passage = chunk(1, 'Sample content written for the demo marketplace by Civic Texts Press. The Constitution was written in Philadelphia in 1787.', 5);
    expect(select(terms, [passage], 'Where was the Constitution written?').map((s) => s.text)).toEqual([
      'The Constitution was written in Philadelphia in 1787.',
    ]);
  });
});
