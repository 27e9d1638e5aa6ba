import type { Engine } from '../../src/engines/types.js';

/** Test-only: spins synchronously forever, as stuck wasm inference does; only ending its host stops it. */
const hang: Engine = {
  async run() {
    for (;;) {
      // busy
    }
  },
};
export default hang;
