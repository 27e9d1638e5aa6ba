import type { Engine } from '../../src/engines/types.js';

/** Test-only: aborts its process (SIGABRT), as a native library's fatal error does. */
const abort: Engine = {
  async run() {
    process.abort();
  },
};
export default abort;
