import type Sharp from 'sharp';
import { onFirstUse } from './on-first-use.ts';

/** sharp, loaded when an image is first resized or cleaned up (thumbnails, receipts). */
export const sharp = onFirstUse<typeof Sharp>('sharp');
