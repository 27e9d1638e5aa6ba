/**
 * The image formats the app reads and writes: one entry per format. Uploads are accepted in each (limits.ts), a
 * result is served in the one its job asked for (the `format` parameter's options, operations.ts), and every MIME
 * type ↔ extension lookup reads this table. A new format is one entry here and its encoder in the server
 * (adapters/output-format.ts, which refuses a format it does not know).
 */
export const IMAGE_FORMATS = [
  {
    id: 'png',
    mime: 'image/png',
    /** The first is the one written. */
    extensions: ['png'],
    label: 'PNG (lossless)',
    /** How a result (stored as PNG) is written in this format: `stored` serves it as it is. */
    encoder: { stored: true, quality: false, flatten: undefined },
  },
  {
    id: 'jpeg',
    mime: 'image/jpeg',
    extensions: ['jpg', 'jpeg'],
    label: 'JPEG',
    // JPEG has no alpha: transparent parts are flattened on white.
    encoder: { stored: false, quality: true, flatten: '#ffffff' },
  },
  {
    id: 'webp',
    mime: 'image/webp',
    extensions: ['webp'],
    label: 'WebP',
    encoder: { stored: false, quality: true, flatten: undefined },
  },
] as const;

export type ImageFormat = (typeof IMAGE_FORMATS)[number];
export type ImageFormatId = ImageFormat['id'];
export type ImageMime = ImageFormat['mime'];

/** The format with this id; undefined for one the app does not know. */
export function formatById(id: string): ImageFormat | undefined {
  return IMAGE_FORMATS.find((f) => f.id === id);
}

/** The format of a MIME type (parameters such as `; charset` ignored); undefined for one the app does not know. */
export function formatByMime(mime: string): ImageFormat | undefined {
  const bare = mime.split(';')[0]?.trim().toLowerCase();
  return IMAGE_FORMATS.find((f) => f.mime === bare);
}

/** The format of a file extension (with or without its dot, any case); undefined for one the app does not know. */
export function formatByExtension(ext: string): ImageFormat | undefined {
  const bare = ext.replace(/^\./, '').toLowerCase();
  return IMAGE_FORMATS.find((f) => (f.extensions as readonly string[]).includes(bare));
}
