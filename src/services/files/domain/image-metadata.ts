// An image file's `imageMediaMetadata`: its width and height in pixels, read from the header of its content (PNG,
// JPEG, GIF, WebP, BMP, TIFF, AVIF, HEIF, ICO and the other raster formats `image-size` knows). Camera data (EXIF
// make, model, exposure, location) is not read.
import { imageSize } from 'image-size';

export interface ImageDimensions {
  width: number;
  height: number;
}

/** Headers of every raster format it reads lie within this (a TIFF whose first directory lies further has none). */
const HEADER_BYTES = 1024 * 1024;

/**
 * The dimensions of `data` when `mimeType` names a raster image and its header reads; undefined otherwise (a vector
 * image, a damaged or unknown one). Only the first MiB is read: it runs inside the write of the content.
 */
export function imageDimensions(data: Buffer, mimeType: string): ImageDimensions | undefined {
  if (!mimeType.startsWith('image/') || mimeType === 'image/svg+xml') return undefined;
  try {
    // A copy, not a view: image-size reads through a DataView of the view's whole ArrayBuffer, so a header cut short
    // would be completed from whatever follows it there (a small Buffer shares its pool with others).
    const { width, height } = imageSize(new Uint8Array(data.subarray(0, HEADER_BYTES)));
    return width > 0 && height > 0 ? { width, height } : undefined;
  } catch {
    return undefined;
  }
}
