/**
 * A tool page's workflow (features/tool/workspace/workflow.ts): what the page shows after each thing the visitor
 * does or the server answers.
 */
import { getOperation, type ImageJob, LIMITS, type Operation } from '@ai-editor/core';
import { describe, expect, it } from 'vitest';
import {
  canProcess,
  initialToolState,
  isBusy,
  jobPhase,
  jobToRestore,
  missingPhoto,
  type ToolEvent,
  type ToolState,
  toolReducer,
} from '@/features/tool/workspace/workflow';
import { ToolError } from '@/lib/job-api';

const denoising = getOperation('denoising');
const objectRemoval = getOperation('object-removal');
const faceSwap = getOperation('face-swap');
const textToImage = getOperation('text2img');
const maxBytes = LIMITS.maxUploadBytes;

const photo = (name = 'cat.png', type = 'image/png', bytes = 10) => new File([new Uint8Array(bytes)], name, { type });

/** The page as it opens at `address` (the query string), embedded in the editor when `embedded` is given. */
function opened(op: Operation, address = '', embedded?: { file?: File; source?: { id: number; index: number } }) {
  return initialToolState(op, { search: new URLSearchParams(address), embedded, maxBytes });
}

const after = (state: ToolState, ...events: ToolEvent[]) => events.reduce(toolReducer, state);

const job = (patch: Partial<ImageJob>): ImageJob =>
  ({
    id: 7,
    operation: 'denoising',
    status: 'pending',
    metadata: { stage: 'queued' },
    parameters: {},
    processedUrl: null,
    processedUrls: [],
    downloadUrls: [],
    ...patch,
  }) as ImageJob;
const completed = (patch: Partial<ImageJob> = {}) =>
  job({ status: 'completed', processedUrl: '/api/images/7/result/0', metadata: { stage: 'done' }, ...patch });
const refusedRead = (status: number) => Object.assign(ToolError.of('STATUS_FETCH_FAILED'), { status });

/** What the page shows of the job it follows, given what the server last said about it. */
const shown = (state: ToolState, seen?: ImageJob, error?: unknown) => jobPhase(denoising, state.jobId, seen, error);

describe('opening a tool page', () => {
  it("starts with no photo, no job and the catalogue's settings", () => {
    const state = opened(denoising);
    expect(state).toMatchObject({ photo: null, source: null, jobId: null, submitting: false });
    expect(state.params).toMatchObject({ strength: 50 });
    expect(shown(state).kind).toBe('none');
    expect(canProcess(state, shown(state))).toBe(true);
  });

  it('after a reload with ?job=, follows that job and reads back what it ran with once it arrives', () => {
    const state = opened(denoising, 'job=7');
    expect(state.jobId).toBe(7);
    expect(shown(state).kind).toBe('running');
    expect(jobToRestore(state, denoising, undefined)).toBeUndefined();
    expect(jobToRestore(state, denoising, completed())?.id).toBe(7);

    const reading = after(state, { type: 'restoreStarted' });
    expect(jobToRestore(reading, denoising, completed())).toBeUndefined();
    const ran = { params: { strength: 80 }, photo: photo('photo-7.png'), mask: new Blob(['mask']), photo2: null };
    const restored = after(reading, { type: 'restored', ran });
    expect(restored).toMatchObject({ photo: ran.photo, initialMask: ran.mask, params: { strength: 80 }, jobId: 7 });
  });

  it('restores the settings alone when the files have expired, and the face photo of a face swap', () => {
    const state = after(opened(denoising, 'job=7'), { type: 'photoChosen', photo: photo() });
    const expired = after(state, {
      type: 'restored',
      ran: { params: { strength: 9 }, photo: null, mask: null, photo2: null },
    });
    expect(expired).toMatchObject({ photo: state.photo, params: { strength: 9 } });
    const face = photo('face-7.png');
    const swapped = after(opened(faceSwap, 'job=7'), {
      type: 'restored',
      ran: { params: {}, photo: photo(), mask: null, photo2: face },
    });
    expect(swapped.photo2).toBe(face);
  });

  it("does not restore another tool's job, and leaves that job's link", () => {
    const state = opened(denoising, 'job=7');
    const other = job({ operation: 'face-enhancement' });
    expect(jobToRestore(state, denoising, other)).toBeUndefined();
    expect(shown(state, other).kind).toBe('otherTool');
    expect(shown(after(state, { type: 'jobShown', jobId: null }), other).kind).toBe('none');
  });

  it('starts from an earlier result with ?from= (a photo tool only), and shows it once it is read', () => {
    const state = opened(denoising, 'from=12&index=1');
    expect(state.source).toEqual({ id: 12, index: 1 });
    expect(opened(textToImage, 'from=12').source).toBeNull();
    const result = photo('result.png');
    expect(after(state, { type: 'sourceLoaded', photo: result })).toMatchObject({
      photo: result,
      source: state.source,
    });
    expect(after(state, { type: 'sourceFailed' }).source).toBeNull();
  });

  it("in the editor, starts from the editor's photo (if the upload rules take it) and ignores the address", () => {
    const chosen = photo();
    expect(opened(denoising, 'job=7&from=3', { file: chosen })).toMatchObject({
      photo: chosen,
      jobId: null,
      source: null,
    });
    expect(opened(denoising, '', { file: photo('anim.gif', 'image/gif') }).photo).toBeNull();
    expect(opened(denoising, '', { source: { id: 4, index: 0 } }).source).toEqual({ id: 4, index: 0 });
  });
});

describe('choosing a photo', () => {
  it('replaces a chained result and the mask a restored job ran with', () => {
    const restored = after(opened(objectRemoval, 'from=12'), {
      type: 'restored',
      ran: { params: {}, photo: photo('photo-7.png'), mask: new Blob(['mask']), photo2: null },
    });
    const mine = photo('mine.png');
    expect(after(restored, { type: 'photoChosen', photo: mine })).toMatchObject({
      photo: mine,
      source: null,
      initialMask: null,
    });
    expect(after(restored, { type: 'photoChosen', photo: null }).photo).toBeNull();
  });

  it('keeps the result shown until Process: a new request clears it, not a new photo', () => {
    const state = after(opened(denoising), { type: 'submitted', jobId: 7 }, { type: 'photoChosen', photo: photo() });
    expect(shown(state, completed()).kind).toBe('done');
  });

  it('makes Process wait while the photo is decoded or the mask is fitted', () => {
    const state = opened(denoising);
    const decoding = after(state, { type: 'checkingChanged', checking: true });
    expect(canProcess(decoding, shown(decoding))).toBe(false);
    const decoded = after(decoding, { type: 'checkingChanged', checking: false });
    expect(canProcess(decoded, shown(decoded))).toBe(true);
    const fitting = after(state, { type: 'maskBusyChanged', busy: true });
    expect(canProcess(fitting, shown(fitting))).toBe(false);
  });

  it('changes one setting and keeps the others', () => {
    const state = after(opened(getOperation('super-resolution')), { type: 'paramChanged', name: 'quality', value: 70 });
    expect(state.params).toMatchObject({ quality: 70, format: 'png' });
  });
});

describe('Process', () => {
  it('is refused without a photo, with a photo the upload rules refuse, and without the face of a face swap', () => {
    expect(missingPhoto(opened(denoising), denoising, maxBytes)).toBe('FILE_REQUIRED');
    const chosen = (op: Operation, file: File) => after(opened(op), { type: 'photoChosen', photo: file });
    expect(missingPhoto(chosen(denoising, photo('a.gif', 'image/gif')), denoising, maxBytes)).toBe('INVALID_FILE_TYPE');
    expect(missingPhoto(chosen(denoising, photo('big.png', 'image/png', 11)), denoising, 10)).toBe('FILE_TOO_LARGE');
    expect(missingPhoto(chosen(denoising, photo()), denoising, maxBytes)).toBeUndefined();
    expect(missingPhoto(chosen(faceSwap, photo()), faceSwap, maxBytes)).toBe('FILE_REQUIRED');
    const both = after(chosen(faceSwap, photo()), { type: 'photo2Chosen', photo: photo('face.png') });
    expect(missingPhoto(both, faceSwap, maxBytes)).toBeUndefined();
  });

  it('needs no photo for a prompt, nor an upload for a chained result', () => {
    expect(missingPhoto(opened(textToImage), textToImage, maxBytes)).toBeUndefined();
    expect(missingPhoto(opened(denoising, 'from=12'), denoising, maxBytes)).toBeUndefined();
  });

  it('is busy while the request is on its way, then follows the new job', () => {
    const sending = after(opened(denoising), { type: 'photoChosen', photo: photo() }, { type: 'submitStarted' });
    expect(isBusy(sending, shown(sending))).toBe(true);
    expect(canProcess(sending, shown(sending))).toBe(false);
    const following = after(sending, { type: 'inputsAccepted' }, { type: 'submitted', jobId: 8 });
    expect(following).toMatchObject({ submitting: false, jobId: 8 });
    expect(shown(following, job({ id: 8 })).kind).toBe('running');
    expect(isBusy(following, shown(following, job({ id: 8 })))).toBe(true);
  });

  it("refused by the page's checks, keeps the photo, the settings and the earlier result", () => {
    const chosen = photo();
    const before = after(
      opened(denoising),
      { type: 'photoChosen', photo: chosen },
      { type: 'paramChanged', name: 'strength', value: 70 },
      { type: 'submitted', jobId: 7 },
    );
    const refused = after(before, { type: 'submitStarted' }, { type: 'submitRefused' });
    expect(refused).toMatchObject({ photo: chosen, params: { strength: 70 }, jobId: 7, submitting: false });
    expect(shown(refused, completed()).kind).toBe('done');
    expect(canProcess(refused, shown(refused, completed()))).toBe(true);
  });

  it('refused by the server, clears the earlier result and keeps the photo to try again', () => {
    const chosen = photo();
    const before = after(opened(denoising), { type: 'photoChosen', photo: chosen }, { type: 'submitted', jobId: 7 });
    const refused = after(before, { type: 'submitStarted' }, { type: 'inputsAccepted' }, { type: 'submitRefused' });
    expect(refused).toMatchObject({ photo: chosen, jobId: null, submitting: false });
    expect(shown(refused).kind).toBe('none');
  });
});

describe('the job it follows', () => {
  const following = after(opened(denoising), { type: 'photoChosen', photo: photo() }, { type: 'submitted', jobId: 7 });

  it('shows its progress while it runs, then its result, and frees the form', () => {
    expect(shown(following, undefined)).toEqual({ kind: 'running', job: undefined });
    const running = job({ metadata: { stage: 'processing', percent: 40 } });
    expect(shown(following, running)).toEqual({ kind: 'running', job: running });
    const done = completed();
    expect(shown(following, done)).toEqual({ kind: 'done', job: done });
    expect(isBusy(following, shown(following, done))).toBe(false);
  });

  it("shows a failure's error and keeps the photo to run again", () => {
    const failed = job({ status: 'failed', metadata: { stage: 'failed', error: 'Out of memory' } });
    expect(shown(following, failed)).toEqual({ kind: 'failed', job: failed, cancelled: false });
    expect(isBusy(following, shown(following, failed))).toBe(false);
    expect(following.photo).not.toBeNull();
  });

  it('says a cancelled job was cancelled', () => {
    const cancelled = job({
      status: 'failed',
      metadata: { stage: 'failed', error: 'Cancelled', errorCode: 'CANCELLED' },
    });
    expect(shown(following, cancelled)).toMatchObject({ kind: 'failed', cancelled: true });
  });

  it('says in words when the job is gone (deleted or expired), and starts again without it', () => {
    expect(shown(following, undefined, refusedRead(404))).toEqual({ kind: 'gone', why: 'not-available' });
    expect(shown(following, undefined, refusedRead(410))).toEqual({ kind: 'gone', why: 'expired' });
    const expired = completed({ processedUrl: null, metadata: { stage: 'done', expired: true } });
    expect(shown(following, expired)).toEqual({ kind: 'gone', why: 'expired' });
    expect(shown(after(following, { type: 'jobShown', jobId: null }), expired).kind).toBe('none');
  });

  it('frees the form when the job cannot be read', () => {
    const error = ToolError.of('STATUS_FETCH_FAILED');
    expect(shown(following, job({}), error)).toEqual({ kind: 'lost', error });
    expect(isBusy(following, shown(following, job({}), error))).toBe(false);
  });

  it("follows another try of a fill, or an earlier one, as the page's job", () => {
    expect(after(following, { type: 'jobShown', jobId: 9 }).jobId).toBe(9);
  });
});
