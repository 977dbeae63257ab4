// Writes the receipt reading set (apps/api/test/fixtures/receipts): each receipt of specs.mjs drawn
// with a real font (DejaVu or Liberation, as Debian ships them) as SVG, rasterised by sharp, then
// spoilt as a camera would (rotation, blur, skew, uneven light, noise) or put into a PDF, with
// truth.json beside them. The output is committed, so tests and CI do not depend on the fonts;
// run again (`node scripts/receipts/generate.mjs`) after changing specs.mjs. A few samples are
// copied to apps/web/public/samples/receipts for the screens and the AI tour.
import { mkdir, rm, writeFile, copyFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import PDFDocument from 'pdfkit';
import sharp from 'sharp';
import { RECEIPTS, SAMPLES, groupOf } from './specs.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const OUT = path.join(root, 'apps/api/test/fixtures/receipts');
const PUBLIC = path.join(root, 'apps/web/public/samples/receipts');
const FONT_FILES = {
  'DejaVu Sans Mono': '/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf',
  'DejaVu Sans': '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf',
  'Liberation Mono': '/usr/share/fonts/truetype/liberation/LiberationMono-Regular.ttf',
};

const WIDTH = 620;
const MARGIN = 34;
const LINE = 32;
const SIZE = 21;

const esc = (s) => s.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

function svgOf(receipt) {
  const height = MARGIN * 2 + receipt.lines.length * LINE;
  const rows = receipt.lines.map((line, i) => {
    const y = MARGIN + (i + 1) * LINE - 8;
    if (line === '') return '';
    if (!Array.isArray(line)) return `<text x="${WIDTH / 2}" y="${y}" text-anchor="middle">${esc(line.c)}</text>`;
    return `<text x="${MARGIN}" y="${y}">${esc(line[0])}</text><text x="${WIDTH - MARGIN}" y="${y}" text-anchor="end">${esc(line[1])}</text>`;
  });
  return {
    height,
    svg: `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}"><rect width="100%" height="100%" fill="#fff"/><g font-family="${receipt.font}" font-size="${SIZE}" fill="#111" xml:space="preserve">${rows.join('')}</g></svg>`,
  };
}

/** A small deterministic random source, so the set is the same on every run. */
function random(seed) {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return ((s >>> 0) % 100000) / 100000;
  };
}

async function noise(width, height, seed, amount) {
  const rnd = random(seed);
  const data = Buffer.alloc(width * height * 4);
  for (let i = 0; i < width * height; i++) {
    const v = Math.round(128 + (rnd() - 0.5) * amount);
    data[i * 4] = v;
    data[i * 4 + 1] = v;
    data[i * 4 + 2] = v;
    data[i * 4 + 3] = 255;
  }
  return sharp(data, { raw: { width, height, channels: 4 } })
    .png()
    .toBuffer();
}

async function spoil(png, kind, seed) {
  const rnd = random(seed * 7919);
  if (kind === 'rotated') {
    const angle = (rnd() < 0.5 ? -1 : 1) * (3 + rnd() * 5);
    return sharp(png).rotate(angle, { background: '#e8e4dc' }).jpeg({ quality: 85 }).toBuffer();
  }
  if (kind === 'blurred') return sharp(png).blur(1.1).jpeg({ quality: 70 }).toBuffer();
  // The phone look: a slight skew and tilt, paper on a darker table, light falling off to one side,
  // sensor noise, a soft focus and JPEG compression.
  const angle = (rnd() < 0.5 ? -1 : 1) * (1.5 + rnd() * 3);
  const shear = (rnd() - 0.5) * 0.04;
  const skewed = await sharp(png)
    .affine(
      [
        [1, shear],
        [0, 1],
      ],
      { background: '#6b655c' },
    )
    .rotate(angle, { background: '#6b655c' })
    .extend({ top: 30, bottom: 30, left: 30, right: 30, background: '#6b655c' })
    .toBuffer({ resolveWithObject: true });
  const { width, height } = skewed.info;
  const light = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="0.4"><stop offset="0" stop-color="#fff"/><stop offset="1" stop-color="#8a8070"/></linearGradient></defs><rect width="100%" height="100%" fill="url(#g)"/></svg>`,
  );
  return sharp(skewed.data)
    .composite([
      { input: light, blend: 'multiply' },
      { input: await noise(width, height, seed, 60), blend: 'soft-light' },
    ])
    .blur(0.7)
    .jpeg({ quality: 72 })
    .toBuffer();
}

function pdfOf(receipt, image) {
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({
      size: [300, 80 + receipt.lines.length * 15],
      margin: 0,
      info: { Title: receipt.id, CreationDate: new Date('2026-01-01T00:00:00Z') },
    });
    const chunks = [];
    doc.on('data', (c) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    if (image) {
      doc.image(image, 0, 0, { width: 300 });
    } else {
      doc.registerFont('receipt', FONT_FILES[receipt.font]);
      doc.font('receipt').fontSize(10);
      receipt.lines.forEach((line, i) => {
        const y = 40 + i * 15;
        if (line === '') return;
        if (!Array.isArray(line)) doc.text(line.c, 16, y, { width: 268, align: 'center', lineBreak: false });
        else {
          doc.text(line[0], 16, y, { lineBreak: false });
          doc.text(line[1], 16, y, { width: 268, align: 'right', lineBreak: false });
        }
      });
    }
    doc.end();
  });
}

await rm(OUT, { recursive: true, force: true });
await mkdir(OUT, { recursive: true });
const truth = [];
let seed = 1;
for (const sample of SAMPLES) {
  const receipt = RECEIPTS.find((r) => r.id === sample.receipt);
  const { svg } = svgOf(receipt);
  const clean = await sharp(Buffer.from(svg)).png({ palette: true, colours: 16 }).toBuffer();
  let file;
  let data;
  if (sample.kind === 'clean') [file, data] = [`${receipt.id}.png`, clean];
  else if (sample.kind === 'pdf-text') [file, data] = [`${receipt.id}-text.pdf`, await pdfOf(receipt)];
  else if (sample.kind === 'pdf-scanned') {
    const scan = await sharp(await spoil(clean, 'blurred', seed))
      .grayscale()
      .jpeg({ quality: 75 })
      .toBuffer();
    [file, data] = [`${receipt.id}-scanned.pdf`, await pdfOf(receipt, scan)];
  } else [file, data] = [`${receipt.id}-${sample.kind}.jpg`, await spoil(clean, sample.kind, seed)];
  await writeFile(path.join(OUT, file), data);
  truth.push({ file, receipt: receipt.id, kind: sample.kind, group: groupOf(sample.kind), expected: receipt.truth });
  seed += 1;
}
await writeFile(path.join(OUT, 'truth.json'), JSON.stringify(truth, null, 2) + '\n');

await mkdir(PUBLIC, { recursive: true });
for (const file of ['us-coffee-photo.jpg', 'de-drugstore.png', 'us-office-invoice-text.pdf'])
  await copyFile(path.join(OUT, file), path.join(PUBLIC, file));
console.log(`${truth.length} receipts written to ${path.relative(root, OUT)}`);
