import { IMAGE_FORMATS, type ImageMime } from './formats.js';

/**
 * The product's constants (docs/product.md#constants). The server may override the configurable ones (see server/src/config.ts);
 * these are the defaults, and the client reads the values in force from `GET /api/config`.
 */
export const LIMITS = {
  /** 10 MB, exactly 10*1024*1024 bytes. */
  maxUploadBytes: 10 * 1024 * 1024,
  /** Decompression-bomb guard: the largest decoded image we accept (width * height). */
  maxInputPixels: 40_000_000,
  /**
   * The largest image any tool may make (output-size.ts): a small photo enlarged by a tool must not cost more memory
   * than the largest photo accepted. Equal to the input limit, so a tool that keeps the size never hits it.
   */
  maxOutputPixels: 40_000_000,
  /** Uses per signed-in user per operation per UTC day. */
  dailyUsesPerOperation: 2,
  /** A guest's results are served scaled down to this long side; signing in gives the full-size file. */
  guestPreviewMaxSidePx: 1024,
  /** The one operation guests may use. */
  guestOperation: 'face-enhancement',
  pollIntervalToolMs: 2000,
  pollIntervalResultMs: 1000,
  /** The result page shows this while a job is pending and the server reports no progress. */
  pendingProgressPercent: 30,
  /** Originals and results are deleted this long after creation. */
  retentionHours: 24,
} as const;

/** The uploads accepted: every format of the table (formats.ts), with the extensions a file picker offers. */
export const ACCEPTED_TYPES = IMAGE_FORMATS.map((f) => ({
  mime: f.mime,
  extensions: f.extensions.map((e) => `.${e}`),
}));

export type AcceptedMime = ImageMime;

export const ACCEPTED_MIME_TYPES: readonly string[] = ACCEPTED_TYPES.map((t) => t.mime);

export function isAcceptedMime(mime: string): mime is AcceptedMime {
  return ACCEPTED_MIME_TYPES.includes(mime);
}

/** Toasts (docs/product.md#constants). */
export const TOAST = {
  limit: 1,
  durationMs: 5000,
  swipeThresholdPx: 50,
  removeDelayMs: 1_000_000,
  viewportMaxWidthPx: 420,
} as const;

export const AD_MIN_HEIGHT_PX = 250;
export const MOBILE_BREAKPOINT_PX = 768;
