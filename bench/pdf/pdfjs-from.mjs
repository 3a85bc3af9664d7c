// Loaded with `node --import ./bench/pdf/pdfjs-from.mjs`: resolves `pdfjs-dist` (and its subpaths) from the folder in
// PDFJS_DIR instead of the project's node_modules, so bench/pdf can run another pdf.js version through the same parser.
import { register } from 'node:module';

register(
  'data:text/javascript,' +
    encodeURIComponent(`
      import { pathToFileURL } from 'node:url';
      const base = pathToFileURL(${JSON.stringify(process.env.PDFJS_DIR + '/')}).href;
      export async function resolve(specifier, context, next) {
        if (specifier === 'pdfjs-dist' || specifier.startsWith('pdfjs-dist/')) return next(specifier, { ...context, parentURL: base + 'x.mjs' });
        return next(specifier, context);
      }`),
);
