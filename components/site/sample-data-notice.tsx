/** The banner every page shows while the marketplace is the seeded sample (SAMPLE_DATA_NOTICE, lib/seed). */
export function SampleDataNotice() {
  return (
    <div role="note" aria-label="Sample data" className="border-b border-amber-300 bg-amber-50 px-4 py-2 text-center text-sm text-amber-950">
      <strong className="font-semibold">Sample data.</strong> Every publisher, knowledge base, document and figure in this
      marketplace was written for the Almanac demo; its health and legal texts are not medical or legal advice.
    </div>
  );
}
