/**
 * The error catalogue: every message the product shows, with its code, the toast title that belongs to it and
 * the HTTP status the API answers with. The texts are the product's own (docs/product.md#messages).
 * `{name}` placeholders are filled by `errorMessage`.
 */
export const ERRORS = {
  // Upload validation (docs/product.md#upload-rules)
  FILE_REQUIRED: { status: 400, title: 'Error', message: 'Please select an image to upload' },
  FILE_TOO_LARGE: { status: 413, title: 'Error', message: 'File size too large. Maximum size is 10MB' },
  INVALID_FILE_TYPE: {
    status: 415,
    title: 'Error',
    message: 'Invalid file type. Please upload a JPEG, PNG, or WebP image',
  },
  TOO_MANY_FILES: { status: 400, title: 'Error', message: 'Please upload one image at a time' },
  /** A batch (several photos, one job each) is checked in the page: it has no request of its own. */
  BATCH_TOO_MANY: { status: 400, title: 'Error', message: 'Please choose up to {max} images at a time' },
  UNEXPECTED_FILE: { status: 400, title: 'Error', message: 'Unexpected file field "{field}"' },
  IMAGE_UNREADABLE: {
    status: 422,
    title: 'Error',
    message: 'The image could not be read. It may be damaged or incomplete',
  },
  IMAGE_TOO_MANY_PIXELS: {
    status: 422,
    title: 'Error',
    message: 'Image dimensions too large. Maximum is {megapixels} megapixels',
  },
  OUTPUT_TOO_LARGE: {
    status: 422,
    title: 'Error',
    message:
      'The result would be {width}x{height} pixels, larger than the {megapixels} megapixels this server can make. Choose a smaller scale or a smaller photo',
  },
  /** Object removal and inpainting copy from outside the mask: a mask over the whole photo leaves nothing. */
  MASK_COVERS_PHOTO: {
    status: 422,
    title: 'Error',
    message: 'The mask covers the whole photo: leave part of it unpainted to fill from',
  },
  MASK_REQUIRED: { status: 400, title: 'Error', message: 'Please paint the area to change (the mask is missing)' },
  /** A mask with nothing painted on it (all black) would change nothing: refused before a use is spent. */
  MASK_EMPTY: {
    status: 422,
    title: 'Error',
    message: 'The mask is empty. Please paint the area to change',
  },
  MASK_SIZE_MISMATCH: {
    status: 422,
    title: 'Error',
    message: 'The mask must have the same proportions as the photo',
  },
  // Request validation
  UNKNOWN_OPERATION: { status: 400, title: 'Error', message: 'Unknown operation "{operation}"' },
  INVALID_PARAMETER: { status: 400, title: 'Error', message: 'Invalid value for "{field}": {reason}' },
  PROMPT_REQUIRED: { status: 400, title: 'Error', message: 'Please enter a prompt before generating' },
  PROMPT_IMG_KEYWORD: {
    status: 400,
    title: 'Error',
    message: "The prompt must contain the word 'img' exactly once",
  },
  OPERATION_UNAVAILABLE: {
    status: 503,
    title: 'Not available on this server',
    message: '{name} is not available on this server. {enable}',
  },
  NOT_FOUND: { status: 404, title: 'Error', message: 'Image not found' },
  ROUTE_NOT_FOUND: { status: 404, title: 'Error', message: 'Not found' },
  RESULT_NOT_READY: { status: 409, title: 'Error', message: 'Processed image not available yet' },
  RETRY_NOT_AVAILABLE: {
    status: 409,
    title: 'Error',
    message: 'Another free try is possible within 10 minutes of the first fill, up to 5 tries. Submit the photo again',
  },
  RESULT_EXPIRED: {
    status: 410,
    title: 'Error',
    message: 'This image was deleted {hours} hours after it was created',
  },
  BAD_REQUEST: { status: 400, title: 'Error', message: '{reason}' },
  /** A multipart body that ends early or does not follow the format (a dropped connection, a broken client). */
  MALFORMED_UPLOAD: {
    status: 400,
    title: 'Error',
    message: 'The upload was cut short or is malformed. Please try again',
  },
  /** A JSON (or text) body over the server's body limit; uploads have their own limit (FILE_TOO_LARGE). */
  BODY_TOO_LARGE: { status: 413, title: 'Error', message: 'The request body is too large. The limit is {limit}' },
  /**
   * A state-changing request with this visitor's cookie sent by a page of another origin (another site, another
   * port or a sibling subdomain): cross-site request forgery.
   */
  CROSS_SITE_REQUEST: {
    status: 403,
    title: 'Error',
    message: 'This request came from another site and was refused. Please use the app itself',
  },
  /** A file could not be written because the disk (or the storage) is full. */
  OUT_OF_STORAGE: { status: 507, title: 'Error', message: 'The server is out of storage space' },
  RATE_LIMITED: {
    status: 429,
    title: 'Error',
    message: 'Too many requests. Please wait a moment and try again',
  },
  INTERNAL: { status: 500, title: 'Error', message: 'Something went wrong on our side. Please try again' },
  /** An `Idempotency-Key` sent again with a different submission (a key names one submission for 24 hours). */
  IDEMPOTENCY_KEY_REUSED: {
    status: 422,
    title: 'Error',
    message: 'This Idempotency-Key was already used for a different submission. Send a new key for a new submission',
  },
  /** The first request with this key is still being handled (it has not made its job yet). */
  IDEMPOTENCY_KEY_IN_USE: {
    status: 409,
    title: 'Error',
    message: 'A submission with this Idempotency-Key is still being handled. Please try again in a moment',
  },

  // Rules (docs/product.md#upload-rules, #rules, #messages)
  FEATURE_RESTRICTED: {
    status: 403,
    title: 'Feature Restricted',
    message: 'Please sign in with Google to access all features.',
  },
  DOWNLOAD_RESTRICTED: {
    status: 403,
    title: 'Download Restricted',
    message: 'Please sign in with Google to download processed images.',
  },
  DAILY_LIMIT_REACHED: {
    status: 429,
    title: 'Daily Limit Reached',
    message: "You've reached your daily limit for this feature. Please try again tomorrow.",
  },
  /** An administrator blocked this account (the admin page's Accounts): every API request is refused. */
  ACCOUNT_SUSPENDED: {
    status: 403,
    title: 'Account suspended',
    message: 'An administrator of this site suspended this account. Sign out to go on as a guest',
  },
  /** The admin page and /api/admin/…: only the accounts ADMIN_EMAILS names (guests included get this). */
  ADMIN_ONLY: { status: 403, title: 'Error', message: 'Only administrators may see this page' },
  /** Block and unblock name an account that has signed in here (the admin page's Accounts lists them). */
  ACCOUNT_NOT_FOUND: { status: 404, title: 'Error', message: 'No account with this id has signed in here' },
  INVALID_TOKEN: {
    status: 401,
    title: 'Authentication Error',
    message: 'Your sign-in has expired or is invalid. Please sign in again.',
  },
  /** Google's signing keys could not be fetched, and none kept from before fit the token. */
  AUTH_UNAVAILABLE: {
    status: 503,
    title: 'Authentication Error',
    message: 'Sign-in cannot be checked right now. Please try again in a minute.',
  },

  // API keys and webhooks
  INVALID_API_KEY: {
    status: 401,
    title: 'Authentication Error',
    message: 'This API key is unknown or has been revoked.',
  },
  /** Keys are managed by the signed-in person (session or ID token), not by another key. */
  API_KEY_FORBIDDEN: { status: 403, title: 'Error', message: 'API keys cannot manage API keys. Sign in to do this.' },
  API_KEY_NOT_FOUND: { status: 404, title: 'Error', message: 'API key not found' },
  WEBHOOK_NEEDS_API_KEY: {
    status: 400,
    title: 'Error',
    message: 'Webhooks are sent for jobs submitted with an API key (Authorization: Bearer aie_...)',
  },
  WEBHOOK_REFUSED: { status: 422, title: 'Error', message: 'Webhook URL refused: {reason}' },

  // Tool page flow (docs/product.md#messages); shown by the client
  UPLOAD_FAILED: { status: 500, title: 'Error', message: 'Failed to upload image' },
  PROCESS_FAILED: { status: 500, title: 'Error', message: 'Failed to process image' },
  NO_IMAGE_ID: { status: 500, title: 'Error', message: 'No image ID received from server' },
  STATUS_FETCH_FAILED: { status: 500, title: 'Error', message: 'Failed to fetch image status' },
  PROCESSING_FAILED: { status: 500, title: 'Error', message: 'Processing failed' },
  DOWNLOAD_FAILED: {
    status: 500,
    title: 'Download failed',
    message: 'Failed to download the image. Please try again.',
  },

  // Result page (docs/product.md#flows, #messages)
  RESULT_PAGE_FAILED: { status: 500, title: 'Error', message: 'Processing failed. Please try again.' },
  UNKNOWN_ERROR: { status: 500, title: 'Error', message: 'Unknown error occurred' },
  RESULT_DOWNLOAD_FAILED: { status: 500, title: 'Error', message: 'Failed to download image. Please try again.' },
  IMAGE_LOAD_FAILED: { status: 500, title: 'Error', message: 'Failed to load image. Please try again.' },
  /**
   * A job page (result page, tool page `?job=`, editor step) whose job's files the retention sweep removed;
   * `{retention}` is RETENTION_HOURS in words ('24 hours').
   */
  JOB_EXPIRED: {
    status: 410,
    title: 'Error',
    message: 'This image is no longer available: results are deleted {retention} after they are made',
  },
  /**
   * A job page whose job the server does not show: deleted, never there, or another visitor's (the server answers
   * all three alike, so as not to tell strangers which jobs exist).
   */
  JOB_NOT_AVAILABLE: {
    status: 404,
    title: 'Error',
    message:
      'This image is no longer available: it was deleted, or the link is not to one of your images. Results are deleted {retention} after they are made',
  },
  /** A job page whose job was cancelled before it finished (its use was given back). */
  JOB_CANCELLED: {
    status: 409,
    title: 'Cancelled',
    message: 'This job was cancelled before it finished. It did not count against your daily uses',
  },

  // Job failures written into metadata.error by the worker
  PROCESSING_TIMED_OUT: { status: 500, title: 'Error', message: 'Processing timed out' },
  WORKER_CRASHED: {
    status: 500,
    title: 'Error',
    message: 'The processing worker stopped unexpectedly. Please try again',
  },
  INTERRUPTED: {
    status: 500,
    title: 'Error',
    message: 'Processing was interrupted by a server restart. Please try again',
  },
  /** The visitor cancelled the job (POST /api/images/:id/cancel). */
  CANCELLED: { status: 409, title: 'Error', message: 'Cancelled' },
  /** Cancel asked of a job that has already completed or failed. */
  JOB_FINISHED: { status: 409, title: 'Error', message: 'This job has already finished' },
  /** An engine failed for a reason of its own (a bug, not a refusal of the photo): logged, never shown. */
  ENGINE_FAILED: {
    status: 500,
    title: 'Error',
    message: 'Something went wrong while processing this image. Please try again',
  },
  /** An engine host went over its memory budget (ENGINE_MEMORY_MB) and was ended. */
  ENGINE_OUT_OF_MEMORY: {
    status: 422,
    title: 'Error',
    message: 'This photo is too large to process on this server. Please try a smaller photo',
  },
  /** The job ended its engine host twice (crash, abort, out of memory): it is not tried again. */
  JOB_KILLED_HOST: {
    status: 500,
    title: 'Error',
    message: 'This photo stopped the processing engine twice and will not be tried again',
  },

  // Select object (POST /api/select-object), the mask editor's helper
  SELECT_PROMPT_INVALID: {
    status: 400,
    title: 'Error',
    message: 'Click on an object in the photo, or drag a box around it, to select it',
  },
  NOTHING_SELECTED: {
    status: 422,
    title: 'Error',
    message: 'No object was found there. Click on the object itself, or drag a box around it',
  },
  /**
   * A selection named a prepared photo this server no longer holds (restarted, or idle past its time): the page sends
   * it again. Between the API and an engine host that no longer keeps the photo, it asks for the photo's bytes.
   */
  SELECT_PHOTO_GONE: {
    status: 404,
    title: 'Error',
    message: 'This photo is no longer prepared for Select object. Choose Select object again',
  },
  SELECT_UNAVAILABLE: {
    status: 503,
    title: 'Not available on this server',
    message: 'Select object is not available on this server. Paint the area with the brush instead',
  },

  // Sign-in failures (docs/product.md#messages), keyed by the provider's error code
  AUTH_POPUP_BLOCKED: {
    status: 400,
    title: 'Authentication Error',
    message: 'Please enable popups for this website to sign in with Google',
  },
  AUTH_CANCELLED_POPUP_REQUEST: {
    status: 400,
    title: 'Authentication Error',
    message: 'Sign-in cancelled. Please try again',
  },
  AUTH_UNAUTHORIZED_DOMAIN: {
    status: 400,
    title: 'Authentication Error',
    message:
      'This domain is not authorized for Google sign-in. Add it to the authorized domains in the Firebase console.',
  },
  AUTH_OPERATION_NOT_ALLOWED: {
    status: 400,
    title: 'Authentication Error',
    message: 'Google sign-in is not enabled. Enable it in the Firebase console under Authentication.',
  },
  AUTH_INVALID_API_KEY: {
    status: 400,
    title: 'Authentication Error',
    message: 'Invalid Firebase configuration. Please check your API key.',
  },
  AUTH_OTHER: {
    status: 400,
    title: 'Authentication Error',
    message: 'Authentication error ({code}). Please ensure popups are enabled and try again.',
  },
} as const satisfies Record<string, { status: number; title: string; message: string }>;

/** Success notices that sit beside the errors (docs/product.md#messages). */
export const NOTICES = {
  DOWNLOAD_SUCCESS: { title: 'Success', message: 'Image downloaded successfully' },
} as const;

export type ErrorCode = keyof typeof ERRORS;

export function errorMessage(code: ErrorCode, vars: Record<string, string | number> = {}): string {
  return ERRORS[code].message.replace(/\{(\w+)\}/g, (whole, name: string) =>
    name in vars ? String(vars[name]) : whole,
  );
}

export function errorTitle(code: string | undefined): string {
  return code && code in ERRORS ? ERRORS[code as ErrorCode].title : 'Error';
}

export function isErrorCode(code: unknown): code is ErrorCode {
  return typeof code === 'string' && code in ERRORS;
}

/** An error that carries a catalogue code; the server turns it into `{ code, message }` with its status. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  constructor(code: ErrorCode, vars: Record<string, string | number> = {}) {
    super(errorMessage(code, vars));
    this.name = 'AppError';
    this.code = code;
    this.status = ERRORS[code].status;
  }
  /**
   * An error of the catalogue whose message was written elsewhere with its placeholders filled (an engine's
   * refusal passed on from its host, or a provider's text written for visitors).
   */
  static carrying(code: ErrorCode, message: string): AppError {
    const err = new AppError(code);
    err.message = message;
    return err;
  }
  /** The API's error body (api/errors.ts describes it for the OpenAPI document). */
  toBody(): { code: ErrorCode; message: string } {
    return { code: this.code, message: this.message };
  }
}

/** Firebase Auth error codes (without the `auth/` prefix) mapped to the catalogue (docs/product.md#messages). */
const AUTH_CODES: Record<string, ErrorCode> = {
  'popup-blocked': 'AUTH_POPUP_BLOCKED',
  'cancelled-popup-request': 'AUTH_CANCELLED_POPUP_REQUEST',
  'unauthorized-domain': 'AUTH_UNAUTHORIZED_DOMAIN',
  'operation-not-allowed': 'AUTH_OPERATION_NOT_ALLOWED',
  'invalid-api-key': 'AUTH_INVALID_API_KEY',
};

export function authErrorMessage(firebaseCode: string): string {
  const code = firebaseCode.replace(/^auth\//, '');
  const entry = AUTH_CODES[code];
  return entry ? errorMessage(entry) : errorMessage('AUTH_OTHER', { code });
}
