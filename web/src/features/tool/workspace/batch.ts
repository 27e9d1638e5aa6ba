import type { Operation } from '@ai-editor/core';
import { zipSync } from 'fflate';
import { fetchBlob } from '../jobs';

/** The most photos one batch takes (the FAQ's promise). */
export const MAX_BATCH = 10;

/**
 * Tools that can run on several photos with the same settings: one photo in, no painted mask, no prompt to write.
 * (A mask is painted on one photo; a prompt is written for one.)
 */
export function batchable(op: Operation): boolean {
  return op.input === 'photo' && !op.mask && !op.params.some((p) => p.kind === 'text');
}

/** 'holiday.jpg' → 'holiday-background-removal.png'; names already taken get the photo's place in the batch. */
export function batchFileNames(op: Operation, files: readonly File[]): string[] {
  const seen = new Set<string>();
  return files.map((f, i) => {
    const stem = f.name.replace(/\.[^.]*$/, '').replace(/[^\w.-]+/g, '-') || 'image';
    let name = `${stem}-${op.id}.png`;
    if (seen.has(name)) name = `${stem}-${i + 1}-${op.id}.png`;
    seen.add(name);
    return name;
  });
}

/** Every result in one zip, made in the page. PNGs are compressed already: stored as they are. */
export async function zipResults(entries: readonly { name: string; url: string }[]): Promise<Blob> {
  const files: Record<string, [Uint8Array, { level: 0 }]> = {};
  for (const e of entries) files[e.name] = [new Uint8Array(await (await fetchBlob(e.url)).arrayBuffer()), { level: 0 }];
  return new Blob([zipSync(files)], { type: 'application/zip' });
}
