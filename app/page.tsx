export default function HomePage() {
  return (
    <main className="mx-auto max-w-3xl px-6 py-16">
      <h1 className="text-3xl font-semibold">Almanac</h1>
      <p className="mt-4 text-slate-700">Knowledge bases with a metered query API.</p>
    </main>
  );
}
