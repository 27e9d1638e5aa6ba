import type { OperationId } from '@ai-editor/core';
import { useEffect, useMemo, useRef, useState } from 'react';
import { fetchBlob, ToolError } from '../jobs';
import { PreparedSelection, placeOn } from '../selectObject';
import { combine, greyPixels, inside, type Mask, overlay } from './segmentMask';

/** A canvas of `width` x `height` with `pixels` (RGBA) on it. */
function canvasOf(pixels: Uint8ClampedArray<ArrayBuffer>, width: number, height: number): HTMLCanvasElement {
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  (canvas.getContext('2d') as CanvasRenderingContext2D).putImageData(new ImageData(pixels, width, height), 0, 0);
  return canvas;
}

/**
 * An image file's RGBA pixels on a picture of `width` x `height` (upright, as the server decodes it), drawn over all
 * of it or at `at`.
 */
async function pixelsOf(
  blob: Blob,
  width: number,
  height: number,
  at = { x: 0, y: 0, width, height },
): Promise<Uint8ClampedArray> {
  const bitmap = await createImageBitmap(blob);
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const ctx = canvas.getContext('2d', { willReadFrequently: true }) as CanvasRenderingContext2D;
  ctx.drawImage(bitmap, at.x, at.y, at.width, at.height);
  bitmap.close();
  return ctx.getImageData(0, 0, width, height).data;
}

/** A mask PNG's grey levels (its red channel), on a picture of `width` x `height` (drawn over all of it or at `at`). */
async function maskOf(blob: Blob, width: number, height: number, at?: ReturnType<typeof placeOn>): Promise<Uint8Array> {
  const rgba = await pixelsOf(blob, width, height, at);
  const out = new Uint8Array(width * height);
  for (let i = 0; i < out.length; i++) out[i] = rgba[i * 4] as number;
  return out;
}

/** A canvas as a file of the job's format (its MIME type; `quality` 0-1 for JPEG and WebP). */
const encode = (canvas: HTMLCanvasElement, type: string, quality: number) =>
  new Promise<Blob>((resolve, reject) =>
    canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('encoding failed'))), type, quality),
  );

/**
 * Segmentation's "Edit the selection": a click on the photo asks Select object for the object under it (the photo
 * is prepared once, then each click sends coordinates only); a click on the subject takes that object out of the
 * mask, a click elsewhere adds it. The overlay and the mask are redrawn in the page from the photo and the edited
 * mask, as the engine draws them, and the downloads give those. Undo steps back one click. `status` is for screen
 * readers and is shown under the photo.
 */
export function useSelectionEdit({
  operation,
  urls,
  beforeUrl,
  quality,
}: {
  operation: OperationId;
  /** The job's output quality (1-100, for JPEG and WebP). */
  quality: number;
  /** The job's outputs: [overlay, mask]. */
  urls: string[];
  /** The photo the job ran on. */
  beforeUrl?: string;
}) {
  const [masks, setMasks] = useState<Mask[]>([]);
  const [loading, setLoading] = useState(false);
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [edited, setEdited] = useState<{ urls: string[]; blobs: Blob[] } | null>(null);
  /** The photo as a file, once the photo and the mask are loaded. */
  const start = useRef<Promise<File> | null>(null);
  const prepared = useRef<PreparedSelection | null>(null);
  const abort = useRef<AbortController>(new AbortController());
  const maskUrl = urls[1];

  useEffect(() => {
    const a = new AbortController();
    abort.current = a;
    return () => a.abort();
  }, []);

  const mask = masks.at(-1) ?? null;
  const photo = useRef<Uint8ClampedArray | null>(null);
  /** The outputs' format, as the server wrote them (the job's `format`). */
  const type = useRef('image/png');

  /** The photo on the server (prepared once, on first need). */
  const selection = (file: File) => {
    prepared.current ??= new PreparedSelection(file, operation, abort.current.signal);
    return prepared.current;
  };

  /** Loads the photo and the job's mask (once), and prepares the photo for the first click (a click awaits it). */
  const begin = () => {
    if (start.current || !beforeUrl || !maskUrl) return;
    setLoading(true);
    setError(null);
    setStatus('Getting the photo ready for clicks…');
    const run = (async () => {
      const [photoBlob, maskBlob] = await Promise.all([fetchBlob(beforeUrl), fetchBlob(maskUrl)]);
      const bitmap = await createImageBitmap(maskBlob);
      const { width, height } = bitmap;
      bitmap.close();
      const file = new File([photoBlob], `photo.${photoBlob.type.split('/')[1] ?? 'png'}`, { type: photoBlob.type });
      const [pixels, data] = await Promise.all([pixelsOf(photoBlob, width, height), maskOf(maskBlob, width, height)]);
      photo.current = pixels;
      type.current = maskBlob.type || 'image/png';
      setMasks([{ data, width, height }]);
      return file;
    })();
    start.current = run;
    // A photo or mask that did not load is loaded again next time; a failed preparation is tried again by a click.
    run.catch(() => {
      start.current = null;
    });
    run
      .then((file) => selection(file).prepare())
      .then(() =>
        setStatus('Click an object: a click on the selection takes that object out, a click elsewhere adds it.'),
      )
      .catch(fail)
      .finally(() => setLoading(false));
  };

  const fail = (err: unknown) => {
    if (abort.current.signal.aborted) return;
    const e = ToolError.from(err);
    setStatus(e.message);
    setError(e.message);
  };

  /** A click at (x, y), in the mask's pixels. */
  const click = async (x: number, y: number) => {
    if (!mask || busy || !start.current) return;
    const take = inside(mask, x, y);
    setBusy(true);
    setError(null);
    setStatus(take ? 'Taking the object out of the selection…' : 'Adding the object to the selection…');
    try {
      const file = await start.current;
      const answer = await selection(file).select((p) => ({
        points: [{ x: (x * p.width) / mask.width, y: (y * p.height) / mask.height, label: 1 }],
      }));
      const object = await maskOf(answer.mask, mask.width, mask.height, placeOn(answer, mask.width, mask.height));
      setMasks((m) => [...m, combine(mask, object, take)]);
      setStatus(take ? 'Object taken out of the selection.' : 'Object added to the selection.');
    } catch (err) {
      fail(err);
    } finally {
      setBusy(false);
    }
  };

  const undo = () => {
    if (masks.length < 2 || busy) return;
    setMasks((m) => m.slice(0, -1));
    setStatus('Last click undone.');
  };

  const overlayPixels = useMemo(() => (mask && photo.current ? overlay(photo.current, mask) : null), [mask]);
  // The edited outputs as files of the job's format, for the result view and the downloads; none while unedited.
  useEffect(() => {
    if (!mask || !overlayPixels || masks.length < 2) {
      setEdited(null);
      return;
    }
    let live = true;
    const made: string[] = [];
    const { width, height } = mask;
    Promise.all([
      encode(canvasOf(overlayPixels, width, height), type.current, quality / 100),
      encode(canvasOf(greyPixels(mask), width, height), type.current, quality / 100),
    ]).then((blobs) => {
      if (!live) return;
      made.push(...blobs.map((b) => URL.createObjectURL(b)));
      setEdited({ urls: made, blobs });
    }, fail);
    return () => {
      live = false;
      for (const u of made) URL.revokeObjectURL(u);
    };
  }, [mask, overlayPixels, masks.length, quality]);

  return {
    begin,
    click,
    undo,
    loading,
    busy,
    status,
    error,
    ready: Boolean(mask),
    canUndo: masks.length > 1 && !busy,
    size: mask ? { width: mask.width, height: mask.height } : null,
    overlay: overlayPixels,
    /** The edited outputs in the job's order, overlay then mask; null while nothing is edited. */
    edited,
  };
}
