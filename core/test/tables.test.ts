/** Core's table of image formats: what uploads accept, what results may be asked in, and the lookups on it. */
import { describe, expect, it } from 'vitest';
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
