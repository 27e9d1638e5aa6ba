import type { Engine } from '../../src/engines/types.js';

/** Test-only: fails the way an engine refuses an input, with a message for the visitor. */
const fail: Engine = {
  async run() {
    throw new Error('This photo cannot be processed');
  },
};
export default fail;
