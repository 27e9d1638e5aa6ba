import { describe, expect, it } from 'vitest';
import {
  guestMayUse,
  mayDownload,
  mayUse,
  nextUtcMidnight,
  OPERATION_IDS,
  operationUsage,
  USER_TYPE_LABELS,
  usesLeftText,
  utcDay,
} from '../src/index.js';

describe('rules', () => {
  it('guests may use face-enhancement only; signed-in users every operation', () => {
    expect(OPERATION_IDS.filter((id) => guestMayUse(id))).toEqual(['face-enhancement']);
    expect(OPERATION_IDS.every((id) => mayUse('authenticated', id))).toBe(true);
    expect(mayUse('guest', 'background-removal')).toBe(false);
  });

  it('only signed-in users may download; labels are the spec’s', () => {
    expect([mayDownload('guest'), mayDownload('authenticated')]).toEqual([false, true]);
    expect(USER_TYPE_LABELS).toEqual({ guest: 'Guest', authenticated: 'Free User' });
  });

  it('counts per UTC day and resets at the next midnight UTC', () => {
    const late = new Date('2026-03-31T23:59:59.500Z');
    expect(utcDay(late)).toBe('2026-03-31');
    expect(nextUtcMidnight(late).toISOString()).toBe('2026-04-01T00:00:00.000Z');
    expect(nextUtcMidnight(new Date('2026-04-01T00:00:00.000Z')).toISOString()).toBe('2026-04-02T00:00:00.000Z');
  });

  it('reports uses left, and says it as the product does', () => {
    expect(operationUsage('authenticated', 'denoising', 1, 2)).toEqual({ allowed: true, used: 1, limit: 2, left: 1 });
    expect(operationUsage('authenticated', 'denoising', 3, 2).left).toBe(0);
    expect(operationUsage('guest', 'denoising', 0)).toEqual({ allowed: false, used: 0, limit: null, left: null });
    expect(usesLeftText(1, 2)).toBe('1 of 2 uses left today');
    expect(usesLeftText(0, 2)).toBe('0 of 2 uses left today');
  });
});
