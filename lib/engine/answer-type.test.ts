import { describe, expect, it } from 'vitest';
import {
  asksVerdict,
  carriesAnswerType,
  drawsConclusion,
  givesAskedBound,
  isAimOrBackground,
  questionAnswerType,
  reportsResult,
  sectionRole,
  withoutRequestFrame,
  type AnswerType,
} from './answer-type';

describe('the kind of answer a question asks for', () => {
  it.each([
    ['Which Supreme Court case established judicial review?', 'case'],
    ['Which 1494 agreement split newly found lands between Spain and Portugal?', 'provision'],
    ['On which day were the first ten amendments finally approved by enough states?', 'day'],
    ['What was the cut-off date for replacing contracts that used the old clauses?', 'day'],
    ['In what year was the Magna Carta sealed?', 'date'],
    ['When did the Nurses’ Health Study start?', 'date'],
    ['What was the writing system of the Sumerians, and when did it appear?', 'date'],
    ["How long is a senator's term of office?", 'duration'],
    ['How far ahead of a plant closing must workers be warned?', 'lead time'],
    ['How much notice must a tenant give?', 'lead time'],
    ['What notification deadline do processor contracts impose?', 'duration'],
    ['How often should blood pressure be checked in adults?', 'frequency'],
    ['What share of Europe’s people died in the plague epidemic?', 'percent'],
    ['What minimum salary must a white-collar worker receive to be exempt?', 'money'],
    ['What is the least an employer may pay a tipped worker?', 'money'],
    ['How many laws did Hammurabi’s code contain?', 'number'],
    ['What is the youngest age at which a person can serve in the Senate?', 'age'],
    ['At what temperature should refrigerated vaccines be kept?', 'temperature'],
    ['What needle length should be used for a six-month-old?', 'number'],
    ['Above what amount in controversy is a jury trial preserved?', 'number'],
    ['What blood pressure should I aim for on treatment?', 'number'],
    ['When should the last dose of polio vaccine be given?', 'when'],
    ['What do housing researchers call the system where rents return to market level?', 'term'],
    ['What is an equation called that has no solution?', 'term'],
    ['What is a data management plan?', 'definition'],
    ['Who founded the Pathways to Housing programme?', 'person'],
    ['Which Han emperor made Confucian teaching the official philosophy?', 'person'],
    ['who played maurice in beauty and the beast 2017', 'credit'],
    ['Who does the voice of Jeremy on Phineas and Ferb?', 'credit'],
    ['Who sang the song at the coronation?', 'credit'],
    ['¿Quién interpreta a Lorraine en Regreso al futuro?', 'credit'],
    ['where is the original london bridge now located', 'place'],
    ['Where did the French and Indian War start?', 'place'],
    ['In which country was the treaty signed?', 'place'],
    ['¿Dónde vivían los incas?', 'place'],
    ['Why are live vaccines postponed?', 'reason'],
    ['¿Cuándo entró en vigor la Constitución?', 'when'],
    ['Wie oft muss die Datensicherung geprüft werden?', 'frequency'],
    ['Quel est le capital minimum d’une SAS ?', 'number'],
  ])('%s → %s', (question, type) => {
    expect(questionAnswerType(question)).toBe(type);
  });

  it('where to find a setting asks for steps, not a place', () => {
    expect(questionAnswerType('Where do I find the factory reset option?')).toBeNull();
    expect(questionAnswerType('Where can I download the manual?')).toBeNull();
  });

  it('a "when" inside the question does not make it a question about time', () => {
    expect(questionAnswerType('What has to happen to the inequality symbol when you divide by a negative number?')).not.toBe('when');
    expect(questionAnswerType('Who led Ghana when it became independent?')).toBe('person');
    // "date" naming another thing ("a date format") asks for that thing, not a date.
    expect(questionAnswerType('Which date format should be used in file names?')).not.toBe('date');
  });

  it('"pressure" asks for a number, a pressure group does not', () => {
    expect(questionAnswerType('What tyre pressure does the manual give?')).toBe('number');
    expect(questionAnswerType('What pressure groups lobbied for the act?')).toBeNull();
  });

  it('has no type for yes/no and how-to questions', () => {
    expect(questionAnswerType('Can restricted-access data still count as FAIR?')).toBeNull();
    expect(questionAnswerType('How should the phrase be written as an expression?')).toBeNull();
  });
});

describe('whether a sentence carries that kind of answer', () => {
  // A part is credited to a performer by name, not merely named; a place is where a thing is, happened or comes from,
  // not what it rests on, who made it or what it was found to be.
  it.each<[AnswerType, string, boolean]>([
    ['credit', "Kevin Kline as Maurice , Belle 's protective widowed father .", true],
    ['credit', 'Lorraine Baines-McFly (portrayed by Lea Thompson) is the wife of George McFly.', true],
    ['credit', 'Neil Patrick Harris portrays Count Olaf in the series.', true],
    ['credit', "Rhys Darby would play Charles, Sir's partner.", true],
    ['credit', "Jeremy Johnson (voiced by Mitchel Musso) is Candace's crush.", true],
    ['credit', "At Villeneuve, Belle proves Maurice's sanity by revealing the Beast in the mirror.", false],
    ['credit', 'In Back to the Future, Lorraine is initially portrayed in 1985 as middle-aged and unhappy.', false],
    ['credit', 'The Cosby Show is an American television sitcom starring as many as six children.', false],
    ['place', 'London Bridge is a bridge in Lake Havasu City, Arizona.', true],
    ['place', 'It is bordered by Saudi Arabia to the north.', true],
    ['place', 'It lies in the Jordan Rift Valley.', true],
    ['place', "The phrase derives from a nineteenth-century soldiers' expression.", true],
    ['place', 'The statue was dedicated on October 28, 1886.', false],
    ['place', 'The Dead Sea is 304 m deep.', false],
    ['place', 'Historians distinguish a second revolution based on steel, electricity and oil.', false],
    ['place', 'The bridge was built by engineers and found to be sound.', false],
  ])('%s in "%s": %s', (type, text, carried) => {
    expect(carriesAnswerType(type, text)).toBe(carried);
  });

  it('dates: a year, a day and month, an era', () => {
    expect(carriesAnswerType('date', 'Delaware ratified on December 7, 1787.')).toBe(true);
    expect(carriesAnswerType('date', 'Caracalla extended citizenship in 212 CE.')).toBe(true);
    expect(carriesAnswerType('date', 'The study enrolled 7,447 adults.')).toBe(false);
  });

  it('a day asked for is a day and month, not a year', () => {
    expect(carriesAnswerType('day', 'Tennessee ratified it on August 18, 1920.')).toBe(true);
    expect(carriesAnswerType('day', 'The Regulation has applied since 25 May 2018.')).toBe(true);
    expect(carriesAnswerType('day', 'It was finally ratified in 1992.')).toBe(false);
  });

  it('a lead time is a duration said to come before something', () => {
    expect(carriesAnswerType('lead time', 'Budgets should be set at least twelve years in advance.')).toBe(true);
    expect(carriesAnswerType('lead time', "New York requires 90 days' notice.")).toBe(true);
    expect(carriesAnswerType('lead time', 'Each budget covers a five-year period.')).toBe(false);
    // "How long has…" is answered by "since" a year.
    expect(carriesAnswerType('duration', 'The number has stood at nine since 1869.')).toBe(true);
    // Contracts write a number in words and then in digits.
    expect(carriesAnswerType('duration', 'It shall continue in effect for a period of five (5) years.')).toBe(true);
    expect(carriesAnswerType('lead time', 'Either party may terminate upon ninety (90) days prior written notice.')).toBe(true);
  });

  it('an age and a temperature', () => {
    expect(carriesAnswerType('age', 'Senator: at least 30 years old.')).toBe(true);
    expect(carriesAnswerType('age', 'Two doses: 12–15 months and 4–6 years.')).toBe(true);
    expect(carriesAnswerType('age', 'Lowers the voting age to 18 in all elections.')).toBe(true);
    expect(carriesAnswerType('age', 'Ratified in 1951 by 36 states.')).toBe(false);
    expect(carriesAnswerType('temperature', 'Refrigerated vaccines: between 2 and 8 degrees C.')).toBe(true);
    expect(carriesAnswerType('temperature', 'Keep the vial for 8 hours.')).toBe(false);
  });

  it('money, percentages and frequencies are told apart from plain numbers', () => {
    expect(carriesAnswerType('money', 'The federal minimum wage is $7.25 per hour.')).toBe(true);
    expect(carriesAnswerType('money', 'The fee was 185,000 dollars per home.')).toBe(true);
    expect(carriesAnswerType('money', 'Workers must be 40 or older.')).toBe(false);
    expect(carriesAnswerType('percent', 'About 90 to 95% have no identifiable cause.')).toBe(true);
    expect(carriesAnswerType('percent', 'The plague killed roughly one third of Europe.')).toBe(true);
    expect(carriesAnswerType('percent', 'The plague reached Europe in 1347.')).toBe(false);
    expect(carriesAnswerType('frequency', 'Review consent every 24 months.')).toBe(true);
  });

  it('an article is no number ("un", "eine"), a digit or a spelt-out number is', () => {
    expect(carriesAnswerType('number', 'Le bail est un contrat.')).toBe(false);
    expect(carriesAnswerType('number', 'Das ist eine Regel.')).toBe(false);
    expect(carriesAnswerType('number', 'Le capital minimum est de deux euros.')).toBe(true);
    expect(carriesAnswerType('number', 'It contained 282 laws.')).toBe(true);
  });

  it('a term is named ("is called", "known as", an acronym in brackets)', () => {
    expect(carriesAnswerType('term', 'This practice is known as vacancy decontrol.')).toBe(true);
    expect(carriesAnswerType('term', 'Participants are analysed by intention-to-treat (ITT).')).toBe(true);
  });
});

describe('a request worded as a question', () => {
  it.each([
    ['Could you outline the key differences between the RegLab and full authorisation?', 'you key differences between the RegLab and full authorisation?'],
    ['Can the FSRA provide examples of best-practice safeguards?', 'the FSRA best-practice safeguards?'],
    ['Could you please provide clarification regarding the filing deadline?', 'you the filing deadline?'],
    ['Would you walk me through the licensing process?', 'you through the licensing process?'],
    // A request may open a clause or follow a label.
    [
      'What steps should an applicant take, and can the FSRA provide examples of best practices?',
      'What steps should an applicant take, and the FSRA best practices?',
    ],
    ['**Enforcement**: Could you describe recent enforcement actions?', '**Enforcement**: you recent enforcement actions?'],
    ['Can an employer provide housing instead of wages?', 'Can an employer provide housing instead of wages?'],
    ['What examples does the guidance give?', 'What examples does the guidance give?'],
  ])('%s wraps the question %s', (request, wrapped) => {
    expect(withoutRequestFrame(request).replace(/\s+/g, ' ')).toBe(wrapped);
  });
});

describe('limits', () => {
  it('a question asking for a top or a minimum prefers a statement giving that kind of limit', () => {
    expect(givesAskedBound('What is the top fine for infringing the principles?', 'Up to EUR 20 million or 4% of turnover.')).toBe(true);
    expect(givesAskedBound('What is the top fine for infringing the principles?', 'The largest fine to date was EUR 1.2 billion.')).toBe(false);
    expect(givesAskedBound('What is the minimum age a national law may set?', 'Member States may lower the threshold, but not below 13 years.')).toBe(true);
    expect(givesAskedBound('How long is a senator’s term?', 'Up to six years.')).toBe(false);
  });
});

describe("what a study's statements and sections are", () => {
  it.each([
    ['Background', 'aim'],
    ['BACKGROUND AND PURPOSE', 'aim'],
    ['Objective', 'aim'],
    ['Methods', 'method'],
    ['Materials and methods', 'method'],
    ['Design, setting, and participants', 'method'],
    ['Main outcome measures', 'method'],
    ['Results', 'finding'],
    ['Conclusions', 'finding'],
    ['Discussion', 'finding'],
    ['Resultados', 'finding'],
    ['Results of the 2019 trial', null],
    ['Setting up a data plan', null],
    ['The Senate', null],
  ])('the heading %s names a section of kind %s', (heading, role) => {
    expect(sectionRole(heading)).toBe(role);
  });

  it.each([
    ['Does pretreatment with statins improve clinical outcome after stroke?', true],
    ['Is the breast best for children with a family history of atopy?', true],
    ['Necrotizing fasciitis: an indication for hyperbaric oxygenation therapy?', true],
    ['Can restricted-access data still count as FAIR?', true],
    ["How long is a senator's term of office?", false],
    ['What is a data management plan?', false],
    ['Does the contract need a signature', false],
    // A request for information worded as a question asks for what follows its verb, not for a yes or a no.
    ['Could you outline the key differences between the RegLab and full authorisation?', false],
    ['Can the FSRA provide examples of best-practice safeguards?', false],
    ['Could the regulator please clarify the criteria for fair storage fees?', false],
    ['Can an employer provide housing instead of wages?', true],
    ['Can the Regulator assist another Authority by using its powers?', true],
    ['**Enforcement**: Can the FSRA provide examples of enforcement actions?', false],
  ])('%s asks for a verdict: %s', (question, verdict) => {
    expect(asksVerdict(question)).toBe(verdict);
  });

  it.each([
    ['To define the concentrations of inhibin in serum and tissue of patients with hydatidiform mole.', 'aim'],
    ['We tested the hypothesis that the deletion allele of the ACE gene is associated with insulin resistance.', 'aim'],
    ['This trial was designed to compare two doses of aspirin.', 'aim'],
    ['This unit develops the laws of exponents and uses them to write very large numbers in scientific notation.', 'aim'],
    ['This module outlines the steps of a breach response.', 'aim'],
    ['These results suggest a protective effect of breast-feeding.', 'conclusion'],
    ['We conclude that the DD genotype does not mediate the risk.', 'conclusion'],
    ['In conclusion, early discharge did not raise readmissions.', 'conclusion'],
    ['Statin use was significantly associated with a better outcome (p = 0.01).', 'result'],
    ['There was no difference in readmission rates between the groups.', 'result'],
    ['The Senate has one hundred members.', null],
  ])('%s reads as %s', (text, kind) => {
    const kinds = [isAimOrBackground(text) && 'aim', drawsConclusion(text) && 'conclusion', reportsResult(text) && 'result'].filter(Boolean);
    if (kind === null) expect(kinds).toEqual([]);
    else expect(kinds).toContain(kind);
  });
});
