import { AppError } from '@ai-editor/core';
import type { Engine } from '../../src/engines/types.js';

/** Test-only: refuses the photo the way an engine does on purpose, with a catalogue error for the visitor. */
const fail: Engine = {
  async run() {
    throw new AppError('BAD_REQUEST', { reason: 'This photo cannot be processed' });
  },
};
export default fail;
