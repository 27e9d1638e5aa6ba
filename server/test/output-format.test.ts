/** A result in the format its job asked for, as core's format table says; a format the table lacks is refused. */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { encodeOutput } from '../src/adapters/output-format.js';

const png = await sharp({ create: { width: 4, height: 4, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } })
  .png()
  .toBuffer();

describe('encodeOutput', () => {
  it('writes JPEG flattened on white, with the .jpg extension', async () => {
    const out = await encodeOutput(png, 'jpeg', 90);
    expect(out).toMatchObject({ contentType: 'image/jpeg', ext: 'jpg' });
    const { data } = await sharp(out.bytes).raw().toBuffer({ resolveWithObject: true });
    expect(Math.min(...data)).toBeGreaterThan(250);
  });

  it('serves PNG as stored, and refuses a format it does not know instead of writing another', async () => {
    expect((await encodeOutput(png, 'png', 90)).bytes).toBe(png);
    await expect(encodeOutput(png, 'gif', 90)).rejects.toThrow('No encoder for the output format "gif"');
  });
});
