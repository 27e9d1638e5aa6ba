/** Helpers for the tool-page and result-page tests (tool-*.spec.ts, result-*.spec.ts). */
import fs from 'node:fs';
import path from 'node:path';
import { LIMITS, OPERATIONS, type OperationId } from '@ai-editor/core';
import AxeBuilder from '@axe-core/playwright';
import { expect, type Locator, type Page } from '@playwright/test';
import sharp from 'sharp';
import { signIn } from './auth-support';
import { ROOT } from './server';

export const fixture = (name: string) => path.join(ROOT, 'fixtures', name);

/**
 * Marks every tool's tutorial as seen before the page loads, so the fixed card covers nothing a test clicks. The
 * tutorial's own test does not use this.
 */
export async function skipTutorials(page: Page, except: OperationId[] = []): Promise<void> {
  const ids = OPERATIONS.map((o) => o.id).filter((id) => !except.includes(id));
  await page.addInitScript((list: string[]) => {
    for (const id of list) localStorage.setItem(`tutorial-seen:${id}`, '1');
  }, ids);
}

/**
 * Makes the page's visitor someone allowed to use `operation` (and to download): guests may use only the guest
 * operation, so for any other one a new user is signed in (a fresh user each time, so daily limits never bite).
 */
export async function allowUse(page: Page, operation: OperationId): Promise<void> {
  if (operation !== LIMITS.guestOperation) await signIn(page);
}

/** The catalogue messages the tests expect, word for word (docs/product.md#upload-rules, #messages). */
export const TEXT = {
  fileRequired: 'Please select an image to upload',
  tooLarge: 'File size too large. Maximum size is 10MB',
  badType: 'Invalid file type. Please upload a JPEG, PNG, or WebP image',
  tooMany: 'Please upload one image at a time',
  processing: 'Processing your request...',
} as const;

/** The destructive toast with this title and text (one toast is visible at a time, docs/product.md#constants). */
export function toast(page: Page, title: string, text: string | RegExp): Locator {
  return page
    .getByRole('region', { name: /Notifications/ })
    .getByRole('listitem')
    .filter({ hasText: title })
    .filter({ hasText: text });
}

/** Chooses a file through the upload area's input. */
export async function choosePhoto(page: Page, file: string | { name: string; mimeType: string; buffer: Buffer }) {
  await page.getByLabel('Photo', { exact: true }).setInputFiles(file);
}

/** Drops several files on a drop zone, as a visitor dragging them from a file manager would. */
export async function dropFiles(target: Locator, files: { name: string; type: string; bytes: Buffer }[]) {
  const payload = files.map((f) => ({ name: f.name, type: f.type, data: [...f.bytes] }));
  const transfer = await target.page().evaluateHandle((list) => {
    const dt = new DataTransfer();
    for (const f of list) dt.items.add(new File([new Uint8Array(f.data)], f.name, { type: f.type }));
    return dt;
  }, payload);
  for (const type of ['dragenter', 'dragover', 'drop']) await target.dispatchEvent(type, { dataTransfer: transfer });
}

/** A fixture resized to exactly width x height, written as a PNG (or a JPEG) in the test's output folder. */
export async function resizedPhoto(
  name: string,
  width: number,
  height: number,
  outDir: string,
  format: 'png' | 'jpeg' = 'png',
): Promise<string> {
  const out = path.join(outDir, `${path.parse(name).name}-${width}x${height}.${format === 'png' ? 'png' : 'jpg'}`);
  if (!fs.existsSync(out)) {
    fs.mkdirSync(outDir, { recursive: true });
    await sharp(fixture(name)).resize(width, height, { fit: 'fill' }).toFormat(format).toFile(out);
  }
  return out;
}

/** A fixture with seeded Gaussian noise of the given sigma added to every channel (a grainy photo). */
export async function noisyPhoto(name: string, sigma: number, outDir: string): Promise<string> {
  const out = path.join(outDir, `${path.parse(name).name}-noisy-${sigma}.png`);
  const { data, info } = await sharp(fixture(name)).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  let seed = 12345;
  const rnd = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return (seed + 1) / 2147483649;
  };
  for (let i = 0; i < data.length; i++) {
    const g = Math.sqrt(-2 * Math.log(rnd())) * Math.cos(2 * Math.PI * rnd());
    data[i] = Math.max(0, Math.min(255, Math.round((data[i] as number) + sigma * g)));
  }
  fs.mkdirSync(outDir, { recursive: true });
  await sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } })
    .png()
    .toFile(out);
  return out;
}

/** Polls the page until `read` returns a value, collecting every distinct value seen (progress, queue position). */
export async function watchUntil<T>(
  page: Page,
  read: () => Promise<T | undefined>,
  done: () => Promise<boolean>,
  timeoutMs: number,
): Promise<T[]> {
  const seen: T[] = [];
  const end = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > end) throw new Error(`not done after ${timeoutMs} ms; seen ${JSON.stringify(seen)}`);
    const v = await read();
    if (v !== undefined && seen.at(-1) !== v) seen.push(v);
    await page.waitForTimeout(200);
  }
  return seen;
}

/**
 * Waits for the tool page's result card (engines on a busy 2-core machine can take a while). When it does not come,
 * the error carries the job's row and the server's health (its queue and engine hosts): CI keeps only its log.
 */
export async function expectResult(page: Page, timeout = 150_000): Promise<Locator> {
  const card = page.getByTestId('result-card');
  try {
    await expect(card).toBeVisible({ timeout });
  } catch (err) {
    throw new Error(`${(err as Error).message}\n${await serverState(page)}`);
  }
  return card;
}

/** The job in the page's address (`?job=ID`) as the API gives it, and /api/health, shortened for a log. */
async function serverState(page: Page): Promise<string> {
  const show = async (url: string) => {
    const res = await page.request.get(url).catch((e: Error) => e);
    return res instanceof Error
      ? `${url}: ${res.message}`
      : `${url}: ${res.status()} ${(await res.text()).slice(0, 3000)}`;
  };
  const job = new URL(page.url()).searchParams.get('job');
  return [job ? await show(`/api/images/${job}`) : 'no job in the address', await show('/api/health')].join('\n');
}

/** axe's serious and critical findings on the page, one line each (an empty list is a pass). */
export async function seriousViolations(page: Page): Promise<string[]> {
  // Let entrance animations finish so colours are measured at rest.
  await page.waitForTimeout(700);
  const { violations } = await new AxeBuilder({ page }).analyze();
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/** A mask canvas' painted pixels (alpha >= 128), 0/1, scaled to width x height (a truth mask's size). */
export async function painted(canvas: Locator, width: number, height: number): Promise<Uint8Array> {
  const alpha = await canvas.evaluate(
    (c: HTMLCanvasElement, size: [number, number]) => {
      const scaled = document.createElement('canvas');
      [scaled.width, scaled.height] = size;
      const ctx = scaled.getContext('2d') as CanvasRenderingContext2D;
      ctx.drawImage(c, 0, 0, size[0], size[1]);
      const d = ctx.getImageData(0, 0, size[0], size[1]).data;
      const out: number[] = [];
      for (let i = 3; i < d.length; i += 4) out.push((d[i] as number) >= 128 ? 1 : 0);
      return out;
    },
    [width, height] as [number, number],
  );
  return Uint8Array.from(alpha);
}
