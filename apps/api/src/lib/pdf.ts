import { createRequire } from 'node:module';
import path from 'node:path';
import type PdfMake from 'pdfmake';
import { onFirstUse } from './on-first-use.ts';

const resolve = createRequire(import.meta.url).resolve;

/**
 * pdfmake, loaded on first use with every font a document of ours names: Roboto (reports, the
 * aging report) from the package's font files, and PDFKit's built-in Helvetica (payslips,
 * consolidation), which needs no file and covers $, €, £ and the bullet. pdfmake keeps one font
 * table for the process, so one place sets it: when each document set its own, a report's export
 * replaced the table and a payslip asked for after it found no Helvetica. A document never loads
 * anything from outside its definition: no URL, and no file but the fonts.
 */
export const pdfMake = onFirstUse<typeof PdfMake>('pdfmake', (pdfmake) => {
  const fontDir = path.join(path.dirname(resolve('pdfmake/package.json')), 'fonts', 'Roboto');
  const roboto = (file: string) => path.join(fontDir, file);
  const helvetica = {
    normal: 'Helvetica',
    bold: 'Helvetica-Bold',
    italics: 'Helvetica-Oblique',
    bolditalics: 'Helvetica-BoldOblique',
  };
  pdfmake.setFonts({
    Roboto: {
      normal: roboto('Roboto-Regular.ttf'),
      bold: roboto('Roboto-Medium.ttf'),
      italics: roboto('Roboto-Italic.ttf'),
      bolditalics: roboto('Roboto-MediumItalic.ttf'),
    },
    Helvetica: helvetica,
  });
  pdfmake.setUrlAccessPolicy(() => false);
  // pdfmake asks this of every font it opens, the built-in ones by name.
  const builtIn = new Set(Object.values(helvetica));
  (pdfmake as unknown as { setLocalAccessPolicy(allow: (file: string) => boolean): void }).setLocalAccessPolicy(
    (file) => builtIn.has(file) || path.resolve(file).startsWith(`${fontDir}${path.sep}`),
  );
});
