/** The listing requests both listing benchmarks measure: every filter, searches of different breadth, each sort, deep pages. */
export const LISTING_MATRIX: [label: string, queryString: string][] = [
  ['no filter (popular, page 1)', ''],
  ['search: one common word', 'query=climate'],
  ['search: prefix of last word', 'query=constit'],
  ['search: two words', 'query=privacy%20regulation'],
  ['search: accents folded', 'query=societe'],
  ['search + category + tag', 'query=climate&category=policy&tags=governance'],
  ['category only', 'category=health'],
  ['two tags', 'tags=privacy,europe'],
  ['language only (4% of rows)', 'language=es'],
  ['search + language', 'query=climate&language=de'],
  ['sort=new', 'sort=new'],
  ['sort=updated', 'sort=updated'],
  ['deep page 2000 (popular)', 'page=2000'],
  ['deep page 2000 (sort=new)', 'sort=new&page=2000'],
  ['pageSize=50, page 100', 'pageSize=50&page=100'],
  // sort=relevance ranks every match before paging: the broadest searches are its worst case.
  ['relevance: one common word', 'query=climate&sort=relevance'],
  ['relevance: prefix of last word', 'query=constit&sort=relevance'],
  ['relevance + category + tag', 'query=climate&category=policy&tags=governance&sort=relevance'],
];

export const LISTING_PATH = '/api/marketplace/knowledge-bases';
