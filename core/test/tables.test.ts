/** Core's tables of facts: image formats, and the administrator actions with their addresses. */
import { describe, expect, it } from 'vitest';
import { ADMIN_ACTIONS, adminActionUrl } from '../src/api/admin.js';
import { extensionFor } from '../src/file-names.js';
import { formatByExtension, formatByMime, IMAGE_FORMATS } from '../src/formats.js';
import { ACCEPTED_MIME_TYPES } from '../src/limits.js';
import { getOperation } from '../src/operations.js';

describe('image formats', () => {
  it('are what uploads accept and what a result may be asked in', () => {
    expect([...ACCEPTED_MIME_TYPES].sort()).toEqual(['image/jpeg', 'image/png', 'image/webp']);
    const format = getOperation('super-resolution').params.find((p) => p.name === 'format');
    expect(format?.kind === 'select' && format.options.map((o) => o.value)).toEqual(IMAGE_FORMATS.map((f) => f.id));
  });

  it('map MIME types and extensions both ways; an unknown one is no format', () => {
    expect(extensionFor('image/jpeg; charset=binary')).toBe('jpg');
    expect(formatByExtension('.JPEG')?.mime).toBe('image/jpeg');
    expect(formatByMime('image/gif')).toBeUndefined();
    expect(extensionFor('image/gif')).toBe('png');
  });
});

describe('admin actions', () => {
  it("build each action's address with its target escaped", () => {
    expect(adminActionUrl('cancel-job', 42)).toBe('/api/admin/jobs/42/cancel');
    expect(adminActionUrl('block-account', 'a/b c')).toBe('/api/admin/users/a%2Fb%20c/block');
    expect(Object.keys(ADMIN_ACTIONS)).toEqual(['cancel-job', 'block-account', 'unblock-account']);
  });
});
