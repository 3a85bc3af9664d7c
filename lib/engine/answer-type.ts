/** The kind of answer a question asks for (a case, a duration…) and whether a sentence carries it (docs/api.md §8.2). */
export type AnswerType =
  | 'case'
  | 'provision'
  | 'day'
  | 'date'
  | 'lead time'
  | 'duration'
  | 'frequency'
  | 'money'
  | 'percent'
  | 'age'
  | 'temperature'
  | 'number'
  | 'when'
  | 'term'
  | 'definition'
  | 'credit'
  | 'place'
  | 'person'
  | 'reason';

/** Strong types are near-certain to be answered by a sentence of that shape; weak ones only lean towards it. */
export const STRONG_TYPES: ReadonlySet<AnswerType> = new Set([
  'case',
  'provision',
  'day',
  'date',
  'lead time',
  'duration',
  'frequency',
  'money',
  'percent',
  'age',
  'temperature',
  'number',
  'credit',
  'place',
]);

const MONEY_WORDS =
  'cost|costs|pay|paid|pays|earn|earns|wage|wages|salary|salaries|price|prices|fee|fees|fine|fines|dollars?|euros?|pounds?|spend|spent|levy|subsidy|coste|costo|precio|salario|sueldo|multa|kosten|kostet|lohn|gehalt|preis|geb[üu]hr|geldbu[ßs]e|co[uû]te?|prix|salaire|amende|redevance';

/** In order: the first pattern that matches decides (a "how long" question is a duration before it is a number). */
const QUESTION_TYPES: Array<[AnswerType, RegExp]> = [
  [
    'case',
    /\b(which|what)\s+(\w+\s+){0,2}(case|cases|decision|ruling|judgment|judgement)\b|\b(qu[ée]|cu[áa]l)\s+(sentencia|caso|fallo)\b|\bwelche[srmn]?\s+(\w+\s+)?(urteil|entscheidung|fall)\b|\bquel(le)?s?\s+(arr[êe]t|d[ée]cision|affaire)\b/i,
  ],
  [
    'provision',
    /\b(which|what)\s+(\w+\s+){0,2}(provision|article|section|clause|amendment|recital|statute|act|directive|instrument|law|treaty|agreement|convention|charter|regulation)\b|\bqu[ée]\s+(art[íi]culo|ley|disposici[óo]n|tratado)\b|\bwelche[srmn]?\s+(artikel|vorschrift|gesetz|paragraf|vertrag)\b|\bquel(le)?s?\s+(article|loi|disposition|trait[ée])\b/i,
  ],
  [
    'term',
    /\bwhat (do|does|did|would) ([\w-]+ ){1,3}call\b|\bwhat (is|are) the (term|name|word|label) (for|given)\b|\bwhat (is|are|was|were) (an?|the|this|that|it|these|they|such) ([\w-]+ ){0,6}?(called|known as|termed|named)\b|\bwhat name\b|\bc[óo]mo se (llama|denomina)n?\b|\bwie (hei[ßs]t|nennt man)\b|\bcomment (appelle-t-on|s['’]appellen?t|nomme-t-on)\b/i,
  ],
  [
    // A calendar day, asked for as such ("On what date…", "Which day…"): a year alone does not answer it.
    'day',
    /\b(what|which) ([\w-]+ ){0,3}(date|day)\b(?! (format|formats|field|fields|stamp|range|column|columns|label|labels|type|types)\b)|\bqu[ée] (fecha|d[íi]a)\b|\ban welchem (tag|datum)\b|\b[àa] quelle date\b|\bquel jour\b/i,
  ],
  [
    'date',
    /\b(what|which) ([\w-]+ ){0,3}(date|day|year)\b(?! (format|formats|field|fields|stamp|range|column|columns|label|labels|type|types)\b)|\bin what year\b|(^\s*|,\s*|\band\s+)(from |since |until )?when (did|was|were|had)\b|\bqu[ée] (fecha|d[íi]a)\b|\ben qu[ée] a[ñn]o\b|\ban welchem (tag|datum)\b|\bin welchem jahr\b|\b[àa] quelle date\b|\bquel jour\b|\ben quelle ann[ée]e\b/i,
  ],
  [
    'lead time',
    /\bhow (far|long|much time|many (years|months|weeks|days|hours)) (ahead|in advance|beforehand|before|prior)\b|\bhow far ahead\b|\bhow much (advance )?notice\b|\bcon cu[áa]nt[oa] (antelaci[óo]n|anticipaci[óo]n)\b|\bwie (lange|weit|fr[üu]h) (im )?voraus\b|\bcombien de temps [àa] l['’]avance\b/i,
  ],
  [
    'duration',
    /\b(how long|for how long|how soon|how quickly|how early|how late|how much time|how far (ahead|in advance)|how many (years|months|weeks|days|hours|minutes)|what is the (term|duration|length|period|time limit|deadline)|within what (time|period)|(during|for|over|within) (which|what|how many) (years|months|weeks|days|hours))\b|\b(what|which) ([\w-]+ ){0,2}(deadline|gap|interval|time limit|waiting period|notice period|duration)\b|\bcu[áa]nto tiempo\b|\bcu[áa]nt[oa]s (a[ñn]os|meses|semanas|d[íi]as|horas)\b|\bqu[ée] plazo\b|\bwie lange\b|\bwie viele (jahre|monate|wochen|tage|stunden)\b|\bwelche frist\b|\bcombien de (temps|jours|mois|ann[ée]es|semaines|heures)\b|\bquel(le)? (d[ée]lai|dur[ée]e)\b|\bpendant combien\b/i,
  ],
  ['frequency', /\bhow (often|frequently)\b|\bcada cu[áa]nto\b|\bcon qu[ée] frecuencia\b|\bwie oft\b|\b[àa] quelle fr[ée]quence\b|\btous les combien\b/i],
  [
    'percent',
    /\b(what|which) (percentage|proportion|share|fraction|percent)\b|\bhow (well|effective|effectively)\b|\bhow (large|big) a (share|proportion|fraction)\b|\bqu[ée] (porcentaje|proporci[óo]n|parte)\b|\bwelche[rn]? anteil\b|\bwie viel prozent\b|\bquel(le)? (pourcentage|proportion|part)\b/i,
  ],
  [
    'age',
    /\bhow old\b|\b(what|which|at what) (\w+ ){0,3}ages?\b(?! (group|groups|band|bands|range|structure|distribution)\b)|\bqu[ée] edad\b|\bwie alt\b|\b(welche[sm]?|ab welchem) alter\b|\bquel [âa]ge\b|\b[àa] partir de quel [âa]ge\b/i,
  ],
  [
    'temperature',
    /\b(what|which|at what) (\w+ ){0,3}temperatures?\b|\bhow (hot|cold|warm)\b|\bqu[ée] temperatura\b|\bwelche temperatur\b|\bquelle temp[ée]rature\b/i,
  ],
  ['money', new RegExp(`\\b(how much|what|which|cu[áa]nto|qu[ée]|wie viel|welche[rsn]?|combien|quel(le)?)(\\s+[\\p{L}-]+){0,6}?\\s+(${MONEY_WORDS})\\b`, 'iu')],
  [
    'number',
    /\b(how (many|much|old|far|high|low|large|big|well|fast|heavy|tall)|(what|which) (is |are |was |were )?(the |a |an )?([\w'’-]+ ){0,3}(percentage|proportion|share|amount|dose|doses|number|level|threshold|minimum|maximum|rate|age|size|fine|fee|ratio|temperature|score|length|range|average|margin|target|cap|chance|probability|odds|volume|headcount|multiple|value|reading|limit|figure|count|total|weight|height|distance|speed|concentration|budget|allowance|intake|requirement|pressure(?! groups?\b))|at what (age|temperature|rate|level|dose)|(above|below|over|under|beyond|up to) what|by how much|what (is|are|was|were) the (\w+ ){0,3}(minimum|maximum|limit|threshold|rate|fine|cap|wage|age|fee|cost|price|salary|temperature|dose|size|number|amount|percentage|proportion|share|capital|penalty|score))\b|\bcu[áa]nt[oa]s?\b|\bqu[ée] (porcentaje|edad|cantidad|capital)\b|\bwie (viele?|hoch|alt|gro[ßs])\b|\bwelche[rsn]? (betrag|anteil|h[öo]he)\b|\bcu[áa]l es (el|la) (capital|edad|porcentaje|cantidad|importe|n[úu]mero|l[íi]mite|umbral)\b|\bcombien\b|\bquel(le)?\s+(est\s+(le|la|l['’])\s*)?(montant|pourcentage|[âa]ge|capital|seuil|taux|nombre|plafond)\b/i,
  ],
  // "When …?" (the question's own word, not a "when" inside it): a date, or the condition or moment it happens at.
  ['when', /^\s*(when|since when|by when|from when|until when)\b|^\s*¿?\s*(desde )?cu[áa]ndo\b|^\s*(seit |bis )?wann\b|^\s*(depuis |jusqu['’])?quand\b/i],
  [
    'definition',
    /^\s*(what (is|are|does|do)\b|define\b|meaning of\b|what('s| is) meant by\b)|\bqu[ée] (es|son|significa)\b|\bwas (ist|sind|bedeutet|versteht man)\b|\bqu['’]est-ce qu|\bque (signifie|veut dire)\b/i,
  ],
  // Who played, voiced or sang a part: answered by a credit ("Kevin Kline as Maurice", "(voiced by Mitchel Musso)"),
  // which seldom repeats the question's verb, never by a sentence that only names the part.
  [
    'credit',
    /^\s*(who|which (actor|actress|singer))\s+(plays|played|play|portrays|portrayed|portray|voices|voiced|voice|(does|did|do|is|was) the voice|sings|sang|sing|starred|stars|star|(is|was) cast)\b|^\s*¿?\s*qui[ée]n (interpreta|interpret[óo]|canta|cant[óo]|(da|dio|pone|puso) (la )?voz)\b|^\s*wer (spielt|spielte|spricht|sprach|singt|sang)\b|^\s*qui (joue|jouait|a jou[ée]|interpr[èe]te|a interpr[ée]t[ée]|chante|a chant[ée]|double|pr[êe]te sa voix)\b/i,
  ],
  // Where a thing is, lives, was fought or comes from; "Where do I find the reset option?" asks for steps, not a place.
  [
    'place',
    /^\s*where\b(?!\s+(do|can|could|should|would|will|may|might|must)\s+(i|we|you|one|they)\s+(find|get|buy|download|see|access|change|set|turn|go|apply|report|sign|register|start|look|put|send|store|save|keep|enter|check)\b)|\bin (which|what) (country|city|state|region|town|county|continent|province|place|area|ocean|sea|part of)\b|^\s*¿?\s*d[óo]nde\b|^\s*wo\b|^\s*o[ùu]\b/i,
  ],
  [
    'person',
    /^\s*(who|whom|whose)\b|^\s*(which|what) (\w+ ){0,2}(emperor|king|queen|ruler|president|leader|judge|justice|minister|chancellor|scientist|author|philosopher|general|pharaoh|sultan|pope|explorer|economist|inventor)\b|\bqui[ée]n(es)?\b|^\s*wer\b|^\s*qui\b/i,
  ],
  ['reason', /^\s*why\b|\bpor qu[ée]\b|\bwarum\b|\bweshalb\b|\bpourquoi\b/i],
];

export function questionAnswerType(question: string): AnswerType | null {
  for (const [type, pattern] of QUESTION_TYPES) if (pattern.test(question)) return type;
  return null;
}

const NUMBER_WORDS =
  'one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|thousand|million|billion|half|quarter|third|thirds|once|twice|dozen|' +
  'uno|una|dos|tres|cuatro|cinco|seis|siete|ocho|nueve|diez|doce|quince|veinte|treinta|cien|mil|mitad|' +
  'eins|ein|eine|zwei|drei|vier|f[üu]nf|sechs|sieben|acht|neun|zehn|zw[öo]lf|zwanzig|drei[ßs]ig|hundert|tausend|h[äa]lfte|' +
  'un|une|deux|trois|quatre|cinq|sept|huit|neuf|dix|douze|quinze|vingt|trente|cent|mille|moiti[ée]';
/** "un", "une", "ein", "eine", "uno", "una" are articles far more often than numbers: alone they are no quantity. */
const ARTICLES = new Set(['un', 'une', 'ein', 'eine', 'uno', 'una']);
const NUMBER_WORDS_ALONE = NUMBER_WORDS.split('|')
  .filter((w) => !ARTICLES.has(w))
  .join('|');
const NUMBER = new RegExp(`(?<![\\d.,])(?!(1[0-9]{3}|20[0-9]{2})(?![\\d.,%]))\\d|\\b(${NUMBER_WORDS_ALONE})\\b`, 'i');
const PROVISION =
  /\b(article|art\.|section|§|recital|clause|art[íi]culo|artikel|paragraf)\s*\d+|\b(\p{Lu}[\p{L}-]+\s+){1,6}(Act|Directive|Regulation|Convention|Treaty|Amendment|Code|Law|Ley|Gesetz|Loi)\b|\b(First|Second|Third|Fourth|Fifth|Sixth|Seventh|Eighth|Ninth|Tenth|Eleventh|Twelfth|Thirteenth|Fourteenth|Fifteenth|Sixteenth|Seventeenth|Eighteenth|Nineteenth|Twentieth|Twenty-\w+)\s+Amendment\b/u;
const TIME_UNIT =
  'years?|months?|weeks?|days?|hours?|minutes?|seconds?|decades?|centur(y|ies)|a[ñn]os?|mes(es)?|semanas?|d[íi]as?|horas?|minutos?|jahre?n?|monate?n?|wochen?|tage?n?|stunden?|minuten?|ans?|ann[ée]es?|mois|semaines?|jours?|heures?|minutes?';
const DURATION = new RegExp(
  `(\\d[\\d.,]*|\\b(${NUMBER_WORDS}|a|an|several|few))(\\s*\\(\\d[\\d.,]*\\))?[\\s-]+(\\w+[\\s-]+)?(${TIME_UNIT})\\b|\\b(since|desde|seit|depuis)\\s+(\\d{4}|the\\s+\\d{4}s)\\b|\\b(for life|life tenure|good behaviou?r|lifetime|indefinitely|permanent(ly)?|de por vida|auf lebenszeit|[àa] vie)\\b`,
  'i',
);
const CASE_NAME = /\b\p{Lu}[\p{L}'’.&-]*(\s+(of|the|de|\p{Lu}[\p{L}'’.&-]*))*\s+v(s)?\.?\s+\p{Lu}|\bSTC\s+\d+\/\d{2,4}\b|\b(arr[êe]t|urteil)\s+\p{Lu}/u;
const YEAR_OR_DATE =
  /\b(1[0-9]{3}|20[0-9]{2})\b|\b\d{1,4}\s*(BCE|BC|CE|AD)\b|\bAD\s*\d{1,4}\b|\b\d{1,2}(st|nd|rd|th)\s+century\b|\b\d{1,2}(st|nd|rd|th)?\s+(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)|\b(january|february|march|april|may|june|july|august|september|october|november|december)\b/i;
const DAY =
  /\b\d{1,2}(st|nd|rd|th)?\.?\s+(of\s+|de\s+)?(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|enero|febrero|marzo|abril|mayo|junio|julio|agosto|se?ptiembre|octubre|noviembre|diciembre|januar|februar|m[äa]rz|mai|juni|juli|oktober|dezember|janvier|f[ée]vrier|mars|avril|juin|juillet|ao[ûu]t|septembre|octobre|novembre|d[ée]cembre)|\b(january|february|march|april|may|june|july|august|september|october|november|december)\s+\d{1,2}\b|\b\d{4}-\d{2}-\d{2}\b|\b(monday|tuesday|wednesday|thursday|friday|saturday|sunday|lunes|martes|mi[ée]rcoles|jueves|viernes|s[áa]bado|domingo|montag|dienstag|mittwoch|donnerstag|freitag|samstag|sonntag|lundi|mardi|mercredi|jeudi|vendredi|samedi|dimanche)\b/i;
const CONDITION =
  /\b(if|when|whenever|unless|before|after|within|until|once|only|as soon as|si|cuando|antes|despu[ée]s|wenn|sobald|bevor|nachdem|innerhalb|lorsque|quand|avant|apr[èe]s|dans un d[ée]lai)\b/i;
const DEFINITION =
  /\b(is|are|means|refers to|describes|is defined as|is called|es|son|significa|se define|ist|sind|bedeutet|bezeichnet|est|sont|d[ée]signe|signifie)\b|^[^:]{2,60}:\s/i;
const PERSON =
  /\b\p{Lu}\p{Ll}+\s+\p{Lu}\p{Ll}+|\b(the|el|la|der|die|le|la)\s+(president|court|congress|senate|house|employer|employee|controller|processor|authority|minister|commission|council|board|governor|judge|parliament|king|queen|emperor|presidente|tribunal|gobierno|cortes|rey|pr[äa]sident|gericht|regierung|bundestag|pr[ée]sident|conseil|gouvernement)\b/iu;
/** A performer credited with a part: "played by Lea Thompson", "Kevin Kline as Maurice", "Neil Patrick Harris portrays…". */
const CREDIT =
  /\b(played|portrayed|voiced|performed|sung|recorded|dubbed|interpretad[oa]|doblad[oa]|gespielt|gesprochen|gesungen|jou[ée]e?|interpr[ée]t[ée]e?|doubl[ée]e?)\s+(by|por|von|par)\s+\p{Lu}|\bstarring\s+\p{Lu}|\bcast as\b|\p{Lu}[\p{L}'’.-]*\s+(as|plays|played|portrays|portrayed|voices|voiced|sings|sang|(would|will) (play|portray|voice)|como|als|dans le r[ôo]le de)\s+(the\s+|el\s+|la\s+|der\s+|die\s+|le\s+)?(young(er)?\s+|old(er)?\s+|adult\s+)?\p{Lu}/u;
/** A place or an origin: "located in", "bordered by", "west of", "in Lake Havasu City", "comes from". */
const PLACE =
  /\b(located|situated|lies|lie|lying|based|found|stands|sits|headquartered|born|lives?|lived|living|resides?|resided|settled|filmed|shot|set|held|built|buried|stored|fought|grown|spoken|native|originated)\s+(in|at|near|between|along|within|off|across|inside|throughout)\b|\b(located|situated|lies|lying|sits|stands|built)\s+on\b|\b(bordered|bounded)\s+by\b|\b(flows?|empties)\s+into\b|\b(north|south|east|west|north-?east|north-?west|south-?east|south-?west)(ern|ward)?\s+(of|part of|coast|side|end)\b|\b(in|at|near|on|along|off|across|throughout|from|en|cerca de|dans|près de)\s+(the\s+|el\s+|la\s+|los\s+|las\s+|le\s+|l['’])?(?!(January|February|March|April|May|June|July|August|September|October|November|December|Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)\b)\p{Lu}\p{Ll}|\b(comes? from|came from|derives? from|derived from|dates? back to|coined|first (used|appeared|recorded))\b/u;
const REASON =
  /\b(because|since|so that|in order to|due to|as a result|reason|therefore|thus|porque|ya que|debido a|weil|da|denn|damit|deshalb|parce que|car|afin de|puisque)\b/i;

const LEAD_TIME = new RegExp(
  `(${DURATION.source})[^.;]{0,40}?\\b(before|in advance|ahead|prior|beforehand|earlier|notice|antes|antelaci[óo]n|vorher|im voraus|avant|[àa] l['’]avance|pr[ée]avis)\\b|\\b(notice|advance|antelaci[óo]n|frist|pr[ée]avis)\\b[^.;]{0,30}?(${DURATION.source})`,
  'i',
);

const AGE =
  /\b\d+([\s-]+(to|and|through)[\s-]+\d+|[–-]\d+)?[\s-]+(years?|months?|weeks?|days?|yrs?|mo)\b|\baged?\s+(of\s+|to\s+|at\s+)?\d+|\bages?\s+\d+|\b\d+\s+(or|and)\s+(older|over|above|younger|under)\b|\b(over|under|below|above|at least|older than|younger than)\s+(the age of\s+)?\d+(\s+years)?\b|\b\d+\s+a[ñn]os\b|\b\d+\s+jahre\b|\b\d+\s+ans\b/i;
const TEMPERATURE = /\d\s*(°|º|degrees?\b|grados?\b|grad\b|degr[ée]s?\b)/i;

const MONEY = new RegExp(
  `[$€£¥]\\s?\\d|\\d[\\d.,]*\\s?[€$£]|\\d[\\d.,]*\\s?(euros?|dollars?|pounds?|cents?|USD|EUR|GBP|CHF)\\b|\\b(USD|EUR|GBP|CHF)\\s?\\d|\\b(${NUMBER_WORDS})\\s+(euros?|dollars?|pounds?|cents?)\\b`,
  'i',
);
const PERCENT =
  /\d\s?(%|per ?cent\b|percent\b|prozent\b|por ciento\b|pour ?cent\b)|\b(half|halves|third|thirds|quarter|quarters|fifth|fifths|tenth|tenths|majority|minority|one in \w+|\w+ out of (every )?\w+|mitad|tercio|tercios|cuarto|h[äa]lfte|drittel|viertel|moiti[ée]|tiers|quart)\b/i;
const FREQUENCY =
  /\b(every|each|daily|weekly|monthly|quarterly|annual(ly)?|yearly|per (year|month|week|day|hour)|a (year|month|week|day)|times|cada|al (a[ñn]o|mes|d[íi]a)|j[äa]hrlich|monatlich|w[öo]chentlich|t[äa]glich|alle|chaque|tous les|par (an|mois|semaine|jour))\b/i;
const NAMES_A_TERM =
  /\b(called|known as|termed|referred to as|named|so-called|dubbed|llamad[oa]s?|denominad[oa]s?|conocid[oa]s? como|genannt|bezeichnet|hei[ßs]t|appel[ée]e?s?|d[ée]nomm[ée]e?s?|nomm[ée]e?s?)\b|\((\p{Lu}[\p{Lu}\p{N}-]{1,9})\)/u;

function carriers(type: AnswerType): RegExp[] {
  switch (type) {
    case 'case':
      return [CASE_NAME];
    case 'provision':
      return [PROVISION];
    case 'day':
      return [DAY];
    case 'date':
      return [YEAR_OR_DATE];
    case 'lead time':
      return [LEAD_TIME];
    case 'duration':
      return [DURATION];
    case 'frequency':
      return [FREQUENCY, NUMBER];
    case 'money':
      return [MONEY];
    case 'percent':
      return [PERCENT];
    case 'age':
      return [AGE];
    case 'temperature':
      return [TEMPERATURE];
    case 'number':
      return [NUMBER];
    case 'when':
      return [YEAR_OR_DATE, CONDITION];
    case 'term':
      return [NAMES_A_TERM, DEFINITION];
    case 'definition':
      return [DEFINITION];
    case 'credit':
      return [CREDIT];
    case 'place':
      return [PLACE];
    case 'person':
      return [PERSON];
    case 'reason':
      return [REASON];
  }
}

export function carriesAnswerType(type: AnswerType, text: string): boolean {
  return carriers(type).some((re) => re.test(text));
}

export function answerTypeOffsets(type: AnswerType, text: string): number[] {
  const out: number[] = [];
  for (const re of carriers(type)) {
    const global = new RegExp(re.source, re.flags.includes('g') ? re.flags : `${re.flags}g`);
    for (const m of text.matchAll(global)) out.push(m.index);
  }
  return out.sort((a, b) => a - b);
}

const AIM_OR_BACKGROUND = [
  /\b(the|our|its|this)\s+(main\s+|primary\s+)?(aims?|purposes?|objectives?|goals?)\s+(of\s+(this|the|our)\s+([\w-]+\s+){1,3})?(was|were|is|are)\s+to\b|^\s*(aims?|objectives?|purposes?)\s*:/i,
  // A document saying what it is about ("This unit develops the laws of exponents…") restates its contents, answering nothing.
  /^\s*(this|the present|our)\s+(study|review|trial|paper|article|guide|section|chapter|handbook|document|knowledge base|briefing|primer|report|unit|module|lesson|course|book|booklet|manual|toolkit|playbook|casebook|compendium|overview|factsheet|fact sheet|leaflet|note|notes|page|part|collection|series)\s+(aims?|aimed|seeks?|sought|explains?|describes?|covers?|sets out|introduces?|looks at|examines?|summari[sz]es?|walks|presents?|discusses?|develops?|outlines?|reviews?|explores?|focuses on|is about|gives an overview|provides an overview|offers an overview)\b/i,
  /^\s*([^,.;]{0,60},\s*)?(we|the authors|the researchers)\s+(aimed|sought|set out|investigated|examined|evaluated|assessed|asked)\b/i,
  // No comma after the infinitive: "To assess the risk, weigh the type of data…" is an instruction, not an aim.
  /^\s*(\(?\d\)\s*)?to (determine|assess|evaluate|investigate|examine|compare|define|describe|explore|identify|establish|analy[sz]e|test|measure|review|quantify|characteri[sz]e|estimate|clarify|ascertain|validate|report|document|develop|study|understand|find out|consider|investigate whether|see whether)\b[^,]*$/i,
  /\b(we|this study|the present study|the authors)\s+(hypothesi[sz]ed|tested the hypothesis|wanted to|wished to|were interested in)\b|\b(was|were|is) (designed|undertaken|conducted|performed|initiated|carried out) to (determine|assess|evaluate|investigate|examine|compare|test|identify|explore|establish)\b/i,
  /\blittle is known\b|\b(remains?|is|are|was|were) (still )?(unclear|unknown|uncertain|inconclusive|poorly understood|controversial|debated|conflicting|not (well )?(known|established|understood))\b/i,
  /\b(we|this study|the present study)\s+(assessed|explored|evaluated|examined|investigated|studied|determined|compared|sought to determine|analy[sz]ed)\s+(whether|if|the (role|effect|impact|influence|value|association|relationship|usefulness|feasibility))\b/i,
  /^\s*(in this (chapter|section|guide|handbook)|this is a (sample|demo))\b/i,
  /\bsample content written for\b|\bcontenido de muestra\b|\bbeispielinhalt\b|\bcontenu d['’]exemple\b/i,
];

export function isAimOrBackground(text: string): boolean {
  return AIM_OR_BACKGROUND.some((re) => re.test(text));
}

const CONCLUSION =
  /^\s*(in conclusion|to conclude|in summary|to summari[sz]e|overall|taken together|collectively|in short)\b|\b(we|the authors|they) (conclude|concluded|propose|recommend)\b|\b(these|our|the|this|present|such) (results?|findings?|data|study|analysis|analyses|observations?|trial|evidence|experience|review)\s+(suggests?|indicates?|shows?|demonstrates?|confirms?|supports?|impl(y|ies)|provides?|highlights?|reveals?|do(es)? not support)\b|\b(appears?|seems?) to\b|\b(there is|there was) no (evidence|significant|difference|association|benefit)\b/i;

export function drawsConclusion(text: string): boolean {
  return CONCLUSION.test(text);
}

const VERDICT =
  /^\s*(is|are|was|were|does|do|did|can|could|should|shall|will|would|has|have|had|may|might|must)\b|^[^?]{3,}:\s[^?]+\?\s*$|^\s*(es|son|est|sont|ist|sind|hat|haben|kann|k[öo]nnen|puede|pueden|peut|peuvent|hay)\b|^\s*¿\s*(es|son|puede|pueden|hay|tiene|existe)\b/i;

const GIVE = 'provide|give|offer|share';
const ASK_YOU = `${GIVE}|list|identify|tell|point out|help`;
const EXPLAIN = 'outline|clarify|elaborate|explain|describe|detail|specify|summari[sz]e|expand|discuss|define|highlight|shed light|break down|walk';
const INFORMATION = 'guidance|examples?|insights?|clarity|clarification|advice|details?|information|overview|list|template|explanation|summary|breakdown';
const QUALIFIER = String.raw`(?:(?:any|some|more|further|specific|detailed|additional|clear|practical|concrete|an?|the|us|me)\s+)*`;

/**
 * "Could you outline…", "Can the FSRA provide examples of…": a request for information worded as a question, at the start
 * of the question or of one of its clauses ("What steps…, and can the FSRA provide examples of…?"). It asks for what
 * follows the verb, not for a yes or a no. `asker` ("Could") and `frame` ("please provide examples of") are the request's
 * own wording: words about asking, never about the documents.
 */
const REQUEST = new RegExp(
  String.raw`(?:^[\s\-–*•"]*|(?<=[,;:?.!*]\s*(?:(?:and|but|also|or|so|then)\s+)?))` +
    String.raw`(?<asker>(?:can|could|would|will)\s+)(?:you\s+(?=(?:please\s+)?(?:${ASK_YOU}|${EXPLAIN})\b)|[^?,]{1,60}?\s+(?=(?:please\s+)?(?:(?:${GIVE})\s+${QUALIFIER}(?:${INFORMATION})|${EXPLAIN})\b))` +
    String.raw`(?<frame>(?:please\s+)?(?:${ASK_YOU}|${EXPLAIN})(?:\s+(?:us|me))?(?:\s+understand)?\s+${QUALIFIER}(?:(?:${INFORMATION})\b\s*)?(?:(?:on|of|about|regarding|concerning|as to|with|into|upon)\b)?)`,
  'gid',
);

/**
 * A request with its wording about asking left out ("Could the FSRA provide examples of material changes?" → "the FSRA
 * material changes?"): the words retrieval and the reader weigh are those of the question it wraps, so that a rare
 * "examples" or "elaborate" does not pull in the passage that happens to use it.
 */
export function withoutRequestFrame(question: string): string {
  let out = '';
  let from = 0;
  for (const m of question.matchAll(REQUEST)) {
    const { asker, frame } = m.indices!.groups!;
    out += `${question.slice(from, asker![0])}${question.slice(asker![1], frame![0])} `;
    from = frame![1];
  }
  return from === 0 ? question : out + question.slice(from);
}

const isRequest = (question: string) => question.search(REQUEST) >= 0;

export function asksVerdict(question: string): boolean {
  const q = question.trim();
  return VERDICT.test(q) && /\?\s*$/.test(q) && !isRequest(q);
}

/** A result as reported ("no difference was found", "p < 0.01"): narrower than a finding, which any comparison is. */
const RESULT =
  /\bp\s*[<=>≤]\s*0?\.\d|\b(statistically )?significant(ly)?\b|\bno (significant |statistical |measurable )?(difference|association|correlation|effect|change|benefit)\b|\b(odds|hazard|risk) ratio\b|\bconfidence interval\b|\b(95|99) ?% ?CI\b|\b(was|were|is|are) (not )?(significantly |independently |strongly |positively |negatively |inversely )?(associated|correlated|related|linked)\b|\b(improved|reduced|increased|decreased|worsened|declined|predicted|outperformed)\b|\b(did|does|do) not (differ|improve|reduce|increase|change|predict|affect|influence)\b/i;

export function reportsResult(text: string): boolean {
  return RESULT.test(text);
}

export type SectionRole = 'aim' | 'method' | 'finding';

/** In order: "Main outcome measures" names a method before "outcome" could name a finding. */
const SECTION_ROLES: Array<[SectionRole, RegExp]> = [
  [
    'method',
    /^(methods?|methodology|materials|patients|participants|subjects|setting|design|study design|interventions?|measurements?|procedures?|data sources?|(main |primary )?outcome measures?|m[ée]todos?|methoden|m[ée]thodes?)$/i,
  ],
  [
    'finding',
    /^(main |key |principal )?(results?|findings?|conclusions?|interpretation|discussion|outcomes?|implications?|bottom line|resultados|conclusi[óo]n(es)?|ergebnisse?|schlussfolgerungen?|fazit|r[ée]sultats?)$/i,
  ],
  [
    'aim',
    /^(background|introduction|objectives?|purposes?|aims?|goals?|context|rationale|importance|hypothes[ie]s|motivation|study objectives?|antecedentes|objetivos?|introducci[óo]n|hintergrund|einleitung|ziele?|contexte|objectifs?)$/i,
  ],
];

export function sectionRole(heading: string): SectionRole | null {
  const first = heading.trim().split(/\s*(?:,|;|&|\/|\band\b)\s*/i)[0] ?? '';
  for (const [role, re] of SECTION_ROLES) if (re.test(first)) return role;
  return null;
}

const FINDING =
  /\b(found|find|finds|showed|shows|show|demonstrated|reduced|reduces|reduce|increased|increases|increase|lowered|lowers|raised|raises|cut|cuts|doubled|halved|prevented|prevents|was associated|were associated|is associated|are associated|compared with|than|more|less|fewer|higher|lower|greater|smaller|effective|result(ed|s)? in|led to|leads to|killed|died|survived|returned|reached|became|encontr[óo]|redujo|aument[óo]|m[áa]s|menos|zeigte|senkte|erh[öo]hte|mehr|weniger|a montr[ée]|r[ée]duit|augment[ée]|plus|moins)\b/i;
const METHOD =
  /\b(were (randomly )?(assigned|allocated|randomi[sz]ed|enrolled|recruited|followed|asked)|was (designed|conducted|carried out)|in a (\w+\s+){0,3}(study|trial|survey|experiment)|published in|for example|e\.g\.|such as|suppose|imagine|consider)\b/i;

export function statesFinding(text: string): boolean {
  return FINDING.test(text);
}

export function describesMethod(text: string): boolean {
  return METHOD.test(text);
}

const ASKS_UPPER =
  /\b(top|maximum|max|highest|most|largest|biggest|upper|ceiling|cap|at most|longest|oldest)\b|\bm[áa]xim[oa]\b|\bh[öo]chst\w*\b|\bmaximal\w*\b/i;
const ASKS_LOWER = /\b(minimum|min|lowest|least|smallest|youngest|earliest|shortest|floor|at least)\b|\bm[íi]nim[oa]\b|\bmindest\w*\b|\bminimal\w*\b/i;
const GIVES_UPPER =
  /\b(up to|at most|no more than|not more than|maximum|max\.?|cap(ped)? (at|of)|ceiling|not exceed|may not exceed|hasta|como m[áa]ximo|bis zu|h[öo]chstens|jusqu['’][àa]|au plus|au maximum)\b/i;
const GIVES_LOWER =
  /\b(at least|no less than|not less than|not below|minimum|min\.?|or (older|more|over|above)|from the age of|al menos|como m[íi]nimo|mindestens|au moins|au minimum)\b/i;

export function givesAskedBound(question: string, text: string): boolean {
  const upper = ASKS_UPPER.test(question);
  const lower = ASKS_LOWER.test(question);
  if (upper === lower) return false;
  return upper ? GIVES_UPPER.test(text) : GIVES_LOWER.test(text);
}
