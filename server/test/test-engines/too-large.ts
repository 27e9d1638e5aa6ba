import { AppError } from '@ai-editor/core';
import type { Engine } from '../../src/engines/types.js';

/** Test-only: refuses with one of the error catalogue's errors, as super-resolution does for oversized results. */
const tooLarge: Engine = {
  async run() {
    throw new AppError('OUTPUT_TOO_LARGE', { width: 8192, height: 8192, megapixels: 16.8 });
  },
};
export default tooLarge;
