/** Sample publishers (fictional). The first seven are the publishers of the hosted knowledge bases (hosted-kbs.md). */
export interface PublisherSeed {
  slug: string;
  name: string;
  description: string;
  websiteUrl: string | null;
}

export const PUBLISHER_SEEDS: PublisherSeed[] = [
  {
    slug: 'civic-texts-press',
    name: 'Civic Texts Press',
    description: 'An independent press that annotates founding documents and everyday law for readers without legal training.',
    websiteUrl: 'https://civic-texts.example.org',
  },
  {
    slug: 'lexica-europe',
    name: 'Lexica Europe',
    description: 'A team of European regulatory lawyers who turn dense legislation into practical guidance for compliance teams.',
    websiteUrl: 'https://lexica-europe.example.eu',
  },
  {
    slug: 'meridian-health',
    name: 'Meridian Health Institute',
    description: 'A non-profit institute that summarises clinical guidelines for primary-care teams and public-health programmes.',
    websiteUrl: 'https://meridian-health.example.org',
  },
  {
    slug: 'harvest-nutrition-lab',
    name: 'Harvest Nutrition Lab',
    description: 'Nutrition scientists who publish plain-language digests of the research on diet, food and health.',
    websiteUrl: 'https://harvest-nutrition.example.org',
  },
  {
    slug: 'brightpath-learning',
    name: 'Brightpath Learning',
    description: 'Curriculum writers and former teachers producing course material for middle and high school.',
    websiteUrl: 'https://brightpath.example.com',
  },
  {
    slug: 'northwind-policy',
    name: 'Northwind Policy Centre',
    description: 'A think tank that writes short, sourced briefings on climate, housing and public services.',
    websiteUrl: 'https://northwind-policy.example.org',
  },
  {
    slug: 'open-methods',
    name: 'Open Methods Collective',
    description: 'Researchers and data stewards who document sound research practice and share it openly.',
    websiteUrl: 'https://open-methods.example.org',
  },
  {
    slug: 'atlas-legal-review',
    name: 'Atlas Legal Review',
    description: 'Practitioner-written commentary on contracts, consumer law and intellectual property.',
    websiteUrl: 'https://atlas-legal.example.com',
  },
  {
    slug: 'editions-clairval',
    name: 'Éditions Clairval',
    description: 'Éditeur indépendant de guides pratiques en droit des sociétés, santé publique et politiques urbaines.',
    websiteUrl: 'https://clairval.example.fr',
  },
  {
    slug: 'editorial-cumbre',
    name: 'Editorial Cumbre',
    description: 'Editorial académica que publica comentarios jurídicos y guías didácticas en español.',
    websiteUrl: 'https://cumbre.example.es',
  },
  {
    slug: 'keystone-compliance',
    name: 'Keystone Compliance Partners',
    description: 'Compliance consultants who write the playbooks they use with clients in finance and technology.',
    websiteUrl: 'https://keystone-compliance.example.com',
  },
  {
    slug: 'lindenhof-fachverlag',
    name: 'Lindenhof Fachverlag',
    description: 'Fachverlag für kompakte Ratgeber zu Arbeitsrecht, Ernährung und Forschungspraxis.',
    websiteUrl: 'https://lindenhof.example.de',
  },
  {
    slug: 'greenline-health',
    name: 'Greenline Public Health',
    description: 'Public-health practitioners who build toolkits for community programmes and workplaces.',
    websiteUrl: 'https://greenline-health.example.org',
  },
  {
    slug: 'kestrel-clinical',
    name: 'Kestrel Clinical Review',
    description: 'Clinicians and methodologists who review evidence for hospital teams and trial units.',
    websiteUrl: 'https://kestrel-clinical.example.org',
  },
  {
    slug: 'beacon-teaching',
    name: 'Beacon Teaching Co-op',
    description: 'A cooperative of teachers sharing classroom-tested practice, from early literacy to university seminars.',
    websiteUrl: 'https://beacon-teaching.example.org',
  },
  {
    slug: 'tidewater-policy',
    name: 'Tidewater Policy Lab',
    description: 'An applied policy lab focused on infrastructure, transport, water and connectivity.',
    websiteUrl: 'https://tidewater-policy.example.org',
  },
  {
    slug: 'quarry-street-analytics',
    name: 'Quarry Street Analytics',
    description: 'Economists and statisticians who explain quantitative evidence for policy makers and researchers.',
    websiteUrl: 'https://quarry-street.example.com',
  },
  {
    slug: 'fieldnote-research',
    name: 'Fieldnote Research Group',
    description: 'Social researchers who write field guides on surveys, interviews, ethics and public participation.',
    websiteUrl: null,
  },
];
