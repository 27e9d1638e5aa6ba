import { createRequire } from 'node:module';

/**
 * OpenCV.js (`@techstark/opencv-js`, Apache-2.0): OpenCV 4.12 compiled to WebAssembly. Loaded once per worker
 * thread on first use (about 0.6 s, ~100 MB); its functions are synchronous.
 */

// The module has no usable types: its API is OpenCV's, documented at docs.opencv.org.
export type OpenCv = any;

let loading: Promise<OpenCv> | undefined;

export function loadOpenCv(): Promise<OpenCv> {
  loading ??= new Promise((resolve) => {
    const cv = createRequire(import.meta.url)('@techstark/opencv-js');
    // Emscripten's module object is a thenable (its "ready" hook): resolving a promise with it would loop forever.
    const ready = () => {
      delete cv.then;
      resolve(cv);
    };
    if (cv.Mat) ready();
    else cv.onRuntimeInitialized = ready;
  });
  return loading;
}

/** Runs `fn` and deletes every Mat it registered, whatever happens (OpenCV.js memory is not garbage-collected). */
export function withMats<T>(fn: (track: <M extends { delete(): void }>(m: M) => M) => T): T {
  const mats: { delete(): void }[] = [];
  try {
    return fn((m) => {
      mats.push(m);
      return m;
    });
  } finally {
    for (const m of mats) m.delete();
  }
}
