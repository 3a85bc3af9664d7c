/** What Next hands a page under an `[id]` segment (both are promises since Next 15), for the account pages that share it. */
export interface IdPageProps {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}
