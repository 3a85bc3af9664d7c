/**
 * What kind of answer a question asks for, and whether a sentence carries one: "which case" wants a case name,
 * "how long" a duration, "how many" a number, "when" a date or a condition, "what is" a definition. Patterns cover
 * English, Spanish, German and French questions (the seeded languages). A sentence of the wanted kind is preferred
 * over one that only shares the question's words.
 */
export type AnswerType = 'case' | 'provision' | 'duration' | 'number' | 'date' | 'definition' | 'person' | 'reason';

/** Strong types are near-certain to be answered by a sentence of that shape; weak ones only lean towards it. */
export const STRONG_TYPES: ReadonlySet<AnswerType> = new Set(['case', 'provision', 'duration', 'number']);

const QUESTION_TYPES: Array<[AnswerType, RegExp]> = [
  [
    'case',
    /\b(which|what)\s+(\w+\s+){0,2}(case|cases|decision|ruling|judgment|judgement)\b|\b(qu[ée]|cu[áa]l)\s+(sentencia|caso|fallo)\b|\bwelche[srmn]?\s+(\w+\s+)?(urteil|entscheidung|fall)\b|\bquel(le)?s?\s+(arr[êe]t|d[ée]cision|affaire)\b/i,
  ],
  [
    'provision',
    /\b(which|what)\s+(\w+\s+){0,2}(provision|article|section|clause|amendment|recital|statute|act|directive|instrument|law)\b|\bqu[ée]\s+(art[íi]culo|ley|disposici[óo]n)\b|\bwelche[srmn]?\s+(artikel|vorschrift|gesetz|paragraf)\b|\bquel(le)?s?\s+(article|loi|disposition)\b/i,
  ],
  [
    'duration',
    /\b(how long|for how long|how many (years|months|weeks|days|hours|minutes)|what is the (term|duration|length|period|time limit|deadline)|within what (time|period))\b|\bcu[áa]nto tiempo\b|\bcu[áa]nt[oa]s (a[ñn]os|meses|semanas|d[íi]as|horas)\b|\bqu[ée] plazo\b|\bwie lange\b|\bwie viele (jahre|monate|wochen|tage|stunden)\b|\bwelche frist\b|\bcombien de (temps|jours|mois|ann[ée]es|semaines|heures)\b|\bquel(le)? (d[ée]lai|dur[ée]e)\b|\bpendant combien\b/i,
  ],
  [
    'number',
    /\b(how (many|much|old|often|far|high|low|large|big)|what (percentage|proportion|share|amount|dose|number|level|threshold|minimum|maximum|rate|age|size|fine|fee|ratio|temperature|score)|at what (age|temperature|rate|level|dose)|by how much|what (is|are|was|were) the (\w+ ){0,3}(minimum|maximum|limit|threshold|rate|fine|cap|wage|age|fee|cost|price|salary|temperature|dose|size|number|amount|percentage|proportion|share|capital|penalty|score))\b|\bcu[áa]nt[oa]s?\b|\bqu[ée] (porcentaje|edad|cantidad|capital)\b|\bwie (viele?|hoch|oft|alt|gro[ßs])\b|\bwelche[rsn]? (betrag|anteil|h[öo]he)\b|\bcombien\b|\bquel(le)? (montant|pourcentage|[âa]ge|capital|seuil|taux)\b/i,
  ],
  [
    'date',
    /\b(when|what year|which year|in what year|since when|what date|by what date)\b|\bcu[áa]ndo\b|\ben qu[ée] a[ñn]o\b|\bwann\b|\bseit wann\b|\bin welchem jahr\b|\bquand\b|\ben quelle ann[ée]e\b/i,
  ],
  [
    'definition',
    /^\s*(what (is|are|does|do)\b|define\b|meaning of\b|what('s| is) meant by\b)|\bqu[ée] (es|son|significa)\b|\bwas (ist|sind|bedeutet|versteht man)\b|\bqu['’]est-ce qu|\bque (signifie|veut dire)\b/i,
  ],
  ['person', /^\s*(who|whom|whose)\b|\bqui[ée]n(es)?\b|^\s*wer\b|^\s*qui\b/i],
  ['reason', /^\s*why\b|\bpor qu[ée]\b|\bwarum\b|\bweshalb\b|\bpourquoi\b/i],
];

/** The answer type a question asks for, or null (yes/no, how-to and open questions). */
export function questionAnswerType(question: string): AnswerType | null {
  for (const [type, pattern] of QUESTION_TYPES) if (pattern.test(question)) return type;
  return null;
}

const NUMBER_WORDS =
  'one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|forty|fifty|sixty|hundred|thousand|million|billion|half|quarter|third|thirds|once|twice|dozen|' +
  'uno|una|dos|tres|cuatro|cinco|seis|siete|ocho|nueve|diez|doce|quince|veinte|treinta|cien|mil|mitad|' +
  'eins|ein|eine|zwei|drei|vier|f[üu]nf|sechs|sieben|acht|neun|zehn|zw[öo]lf|zwanzig|drei[ßs]ig|hundert|tausend|h[äa]lfte|' +
  'un|une|deux|trois|quatre|cinq|sept|huit|neuf|dix|douze|quinze|vingt|trente|cent|mille|moiti[ée]';
/** A number that is not a year (a year answers "when", not "how many"). */
const NUMBER = new RegExp(`(?<![\\d.,])(?!(1[0-9]{3}|20[0-9]{2})(?![\\d.,%]))\\d|\\b(${NUMBER_WORDS})\\b`, 'i');
const PROVISION = /\b(article|art\.|section|§|recital|clause|art[íi]culo|artikel|paragraf)\s*\d+|\b(\p{Lu}[\p{L}-]+\s+){1,6}(Act|Directive|Regulation|Convention|Treaty|Amendment|Code|Law|Ley|Gesetz|Loi)\b|\b(First|Second|Third|Fourth|Fifth|Sixth|Seventh|Eighth|Ninth|Tenth|Eleventh|Twelfth|Thirteenth|Fourteenth|Fifteenth|Sixteenth|Seventeenth|Eighteenth|Nineteenth|Twentieth|Twenty-\w+)\s+Amendment\b/u;
const TIME_UNIT =
  'years?|months?|weeks?|days?|hours?|minutes?|seconds?|decades?|centur(y|ies)|a[ñn]os?|mes(es)?|semanas?|d[íi]as?|horas?|minutos?|jahre?n?|monate?n?|wochen?|tage?n?|stunden?|minuten?|ans?|ann[ée]es?|mois|semaines?|jours?|heures?|minutes?';
const DURATION = new RegExp(
  `(\\d[\\d.,]*|\\b(${NUMBER_WORDS}|a|an|several|few))[\\s-]+(\\w+[\\s-]+)?(${TIME_UNIT})\\b|\\b(for life|life tenure|good behaviou?r|lifetime|indefinitely|permanent(ly)?|de por vida|auf lebenszeit|[àa] vie)\\b`,
  'i',
);
/** "Marbury v. Madison", "Brown v. Board of Education", "Roe vs. Wade"; STC 123/2004 for the Spanish court. */
const CASE_NAME = /\b\p{Lu}[\p{L}'’.&-]*(\s+(of|the|de|\p{Lu}[\p{L}'’.&-]*))*\s+v(s)?\.?\s+\p{Lu}|\bSTC\s+\d+\/\d{2,4}\b|\b(arr[êe]t|urteil)\s+\p{Lu}/u;
const YEAR_OR_DATE =
  /\b(1[0-9]{3}|20[0-9]{2})\b|\b\d{1,2}(st|nd|rd|th)?\s+(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)|\b(january|february|march|april|may|june|july|august|september|october|november|december)\b/i;
const CONDITION = /\b(if|when|whenever|unless|before|after|within|until|once|only|as soon as|si|cuando|antes|despu[ée]s|wenn|sobald|bevor|nachdem|innerhalb|lorsque|quand|avant|apr[èe]s|dans un d[ée]lai)\b/i;
const DEFINITION = /\b(is|are|means|refers to|describes|is defined as|is called|es|son|significa|se define|ist|sind|bedeutet|bezeichnet|est|sont|d[ée]signe|signifie)\b|^[^:]{2,60}:\s/i;
const PERSON = /\b\p{Lu}\p{Ll}+\s+\p{Lu}\p{Ll}+|\b(the|el|la|der|die|le|la)\s+(president|court|congress|senate|house|employer|employee|controller|processor|authority|minister|commission|council|board|governor|judge|parliament|king|queen|emperor|presidente|tribunal|gobierno|cortes|rey|pr[äa]sident|gericht|regierung|bundestag|pr[ée]sident|conseil|gouvernement)\b/iu;
const REASON = /\b(because|since|so that|in order to|due to|as a result|reason|therefore|thus|porque|ya que|debido a|weil|da|denn|damit|deshalb|parce que|car|afin de|puisque)\b/i;

/** Does this text carry an answer of the type? (For a definition, `focus` holds where the question's words end.) */
export function carriesAnswerType(type: AnswerType, text: string): boolean {
  switch (type) {
    case 'case':
      return CASE_NAME.test(text);
    case 'provision':
      return PROVISION.test(text);
    case 'duration':
      return DURATION.test(text);
    case 'number':
      return NUMBER.test(text);
    case 'date':
      return YEAR_OR_DATE.test(text) || CONDITION.test(text);
    case 'definition':
      return DEFINITION.test(text);
    case 'person':
      return PERSON.test(text);
    case 'reason':
      return REASON.test(text);
  }
}

/**
 * Sentences that state an aim, a purpose or the background instead of a finding ("The aim of this study was…",
 * "This chapter explains…", "Little is known about…"): kept only when nothing better answers.
 */
const AIM_OR_BACKGROUND = [
  /\b(the|our|its|this)\s+(main\s+|primary\s+)?(aims?|purposes?|objectives?|goals?)\s+(of\s+(this|the|our)\s+\w+\s+)?(was|were|is|are)\s+to\b/i,
  /^\s*(this|the present|our)\s+(study|review|trial|paper|article|guide|section|chapter|handbook|document|knowledge base|briefing|primer|report)\s+(aims?|aimed|seeks?|sought|explains?|describes?|covers?|sets out|introduces?|looks at|examines?|summari[sz]es?|walks|presents?|discusses?)\b/i,
  /^\s*(we|the authors|the researchers)\s+(aimed|sought|set out|investigated|examined|evaluated|assessed|asked)\b/i,
  /\blittle is known\b|\b(remains?|is|are) (unclear|unknown|poorly understood|controversial)\b/i,
  /^\s*(in this (chapter|section|guide|handbook)|this is a (sample|demo))\b/i,
  /\bsample content written for\b|\bcontenido de muestra\b|\bbeispielinhalt\b|\bcontenu d['’]exemple\b/i,
];

export function isAimOrBackground(text: string): boolean {
  return AIM_OR_BACKGROUND.some((re) => re.test(text));
}

/** A finding or a result: a change, a comparison, an outcome ("found", "reduced", "more than", "associated with"). */
const FINDING =
  /\b(found|find|finds|showed|shows|show|demonstrated|reduced|reduces|reduce|increased|increases|increase|lowered|lowers|raised|raises|cut|cuts|doubled|halved|prevented|prevents|was associated|were associated|is associated|are associated|compared with|than|more|less|fewer|higher|lower|greater|smaller|effective|result(ed|s)? in|led to|leads to|killed|died|survived|returned|reached|became|encontr[óo]|redujo|aument[óo]|m[áa]s|menos|zeigte|senkte|erh[öo]hte|mehr|weniger|a montr[ée]|r[ée]duit|augment[ée]|plus|moins)\b/i;
/** How a study or an example was set up rather than what it found. */
const METHOD =
  /\b(were (randomly )?(assigned|allocated|randomi[sz]ed|enrolled|recruited|followed|asked)|was (designed|conducted|carried out)|in a (\w+\s+){0,3}(study|trial|survey|experiment)|published in|for example|e\.g\.|such as|suppose|imagine|consider)\b/i;

export function statesFinding(text: string): boolean {
  return FINDING.test(text);
}

export function describesMethod(text: string): boolean {
  return METHOD.test(text);
}
