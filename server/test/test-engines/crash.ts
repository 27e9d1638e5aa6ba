import type { Engine } from '../../src/engines/types.js';

/** Test-only: ends its engine host abruptly, as a native crash would. */
const crash: Engine = {
  async run() {
    process.exit(3);
  },
};
export default crash;
