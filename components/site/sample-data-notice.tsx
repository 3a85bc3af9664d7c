// Shown while the marketplace is the seeded sample; shorter on a phone so it takes two lines, not four.
export function SampleDataNotice() {
  return (
    <div role="note" aria-label="Sample data" className="border-b border-amber-300 bg-amber-50 px-4 py-2 text-center text-sm text-amber-950">
      <strong className="font-semibold">Sample data.</strong> <span className="sm:hidden">Written for the Almanac demo; not medical or legal advice.</span>
      <span className="hidden sm:inline">
        Every publisher, knowledge base, document and figure in this marketplace was written for the Almanac demo; its health and legal texts are not medical or
        legal advice.
      </span>
    </div>
  );
}
