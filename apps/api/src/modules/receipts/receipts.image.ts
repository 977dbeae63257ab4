import { sharp } from '../../lib/images.ts';

/** Text reads best when its lines are about 30 px tall: receipts are upscaled or shrunk to this width. */
const TARGET_WIDTH = 1000;
const MAX_INPUT_PIXELS = 60_000_000;
const SKEW_LIMIT = 12;
const SKEW_STEP = 0.25;

/**
 * The skew angle (degrees, positive = the text runs down to the right) that makes the text lines
 * horizontal: a projection-profile search over dark pixels (the angle whose row histogram is the
 * most peaked, i.e. has the largest sum of squares). sharp has no deskew of its own.
 */
export function estimateSkew(gray: Uint8Array, width: number, height: number): number {
  const points: number[] = [];
  let sum = 0;
  for (const v of gray) sum += v;
  const dark = Math.min(150, (sum / gray.length) * 0.75);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) if (gray[y * width + x]! < dark) points.push(x, y);
  }
  if (points.length < 40) return 0;
  const score = (deg: number) => {
    const t = (deg * Math.PI) / 180;
    const sin = Math.sin(t);
    const cos = Math.cos(t);
    const offset = width * Math.abs(sin) + 2;
    const bins = new Float64Array(Math.ceil(height + 2 * offset + 2));
    for (let i = 0; i < points.length; i += 2) bins[Math.round(points[i + 1]! * cos - points[i]! * sin + offset)]! += 1;
    let s = 0;
    for (const b of bins) s += b * b;
    return s;
  };
  let best = 0;
  let bestScore = score(0);
  for (let deg = -SKEW_LIMIT; deg <= SKEW_LIMIT; deg += SKEW_STEP) {
    const s = score(deg);
    if (s > bestScore * 1.0001) [best, bestScore] = [deg, s];
  }
  return best;
}

/**
 * What the OCR sees: upright (EXIF), grayscale, the light evened out (each pixel divided by a
 * blurred small copy of the page, which removes shadows and a darker table and stretches the
 * contrast: paper goes white, print stays dark), then deskewed.
 */
export async function prepareForOcr(input: Buffer): Promise<{ image: Buffer; skew: number }> {
  const gray = await sharp()(input, { limitInputPixels: MAX_INPUT_PIXELS })
    .rotate()
    .flatten({ background: '#ffffff' })
    .grayscale()
    .resize({ width: TARGET_WIDTH })
    .extractChannel(0)
    .raw()
    .toBuffer({ resolveWithObject: true });
  const { width, height } = gray.info;
  const raw = { raw: { width, height, channels: 1 as const } };
  const background = await sharp()(gray.data, raw)
    .resize({ width: Math.max(8, Math.round(width / 8)) })
    .blur(3)
    .resize({ width, height, fit: 'fill' })
    .extractChannel(0)
    .raw()
    .toBuffer();
  const flat = Buffer.alloc(width * height);
  for (let i = 0; i < flat.length; i++)
    flat[i] = Math.min(255, Math.round((gray.data[i]! / Math.max(background[i]!, 1)) * 235));
  const small = await sharp()(flat, raw)
    .resize({ width: 500 })
    .extractChannel(0)
    .raw()
    .toBuffer({ resolveWithObject: true });
  const skew = estimateSkew(new Uint8Array(small.data), small.info.width, small.info.height);
  // No hard threshold: after the light is evened out, tesseract's own (Otsu) binarisation keeps
  // thin strokes of blurred print that a fixed cut loses.
  const image = await sharp()(flat, raw)
    .rotate(-skew, { background: '#ffffff' })
    .png({ compressionLevel: 1 })
    .toBuffer();
  return { image, skew };
}
