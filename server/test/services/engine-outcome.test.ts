/** The one translation of engine failures into what the visitor sees (jobs, object selection, photo analysis). */
import { AppError } from '@ai-editor/core';
import { describe, expect, it, vi } from 'vitest';
import { EngineFailure } from '../../src/adapters/engine-pool.js';
import { ProviderFailure } from '../../src/engines/errors.js';
import { ProviderError } from '../../src/engines/replicate/provider-error.js';
import { engineAppError, visitorError } from '../../src/services/engine-outcome.js';

const log = () => ({ error: vi.fn() });

describe('visitorError', () => {
  it('keeps a refusal’s catalogue code and its filled-in message, logging nothing', () => {
    const l = log();
    const refusal = new AppError('OUTPUT_TOO_LARGE', { width: 9000, height: 9000, megapixels: 16 });
    expect(visitorError(refusal, l, {})).toEqual({ code: 'OUTPUT_TOO_LARGE', message: refusal.message });
    // The same refusal passed on by an engine host.
    const fromHost = new EngineFailure(refusal.message, 'engine', 'OUTPUT_TOO_LARGE');
    expect(visitorError(fromHost, l, {})).toEqual({ code: 'OUTPUT_TOO_LARGE', message: refusal.message });
    expect(l.error).not.toHaveBeenCalled();
  });

  it('says why an engine host was ended', () => {
    const l = log();
    const code = (reason: 'timeout' | 'cancelled' | 'crashed' | 'memory') =>
      visitorError(new EngineFailure('raw', reason), l, {}).code;
    expect([code('timeout'), code('cancelled'), code('crashed'), code('memory')]).toEqual([
      'PROCESSING_TIMED_OUT',
      'CANCELLED',
      'WORKER_CRASHED',
      'ENGINE_OUT_OF_MEMORY',
    ]);
    expect(visitorError(new EngineFailure('raw', 'memory'), l, {}).message).toBe(
      'This photo is too large to process on this server. Please try a smaller photo',
    );
  });

  it('shows a provider’s text only where it was written for visitors', () => {
    const l = log();
    expect(visitorError(new ProviderError('unavailable'), l, {})).toEqual({
      message: 'The image provider is unavailable. Please try again later',
    });
    const hidden = new ProviderFailure('token abc123 refused by api.example', false);
    expect(visitorError(hidden, l, { job: 7 })).toEqual({
      code: 'ENGINE_FAILED',
      message: 'Something went wrong while processing this image. Please try again',
    });
    expect(l.error).toHaveBeenCalledTimes(1);
  });

  it('logs anything else once, with its stack and whose it was, and shows ENGINE_FAILED', () => {
    const l = log();
    const bug = new TypeError('cannot read properties of undefined');
    const shown = engineAppError(bug, l, { task: 'select-object' });
    expect(shown).toBeInstanceOf(AppError);
    expect([shown.code, shown.status]).toEqual(['ENGINE_FAILED', 500]);
    expect(shown.message).not.toContain('undefined');
    expect(l.error).toHaveBeenCalledTimes(1);
    expect(l.error).toHaveBeenCalledWith({ task: 'select-object', err: bug }, 'engine failed');
    expect(bug.stack).toBeDefined();
  });
});
