import fs from 'node:fs';
import type { Engine } from '../../src/engines/types.js';
import echo from './echo.js';

/** The file whose existence ends the warm-up (set by the test before its server starts; unset: no wait). */
export const WARM_GATE_ENV = 'AIE_TEST_WARM_GATE';

/** Test-only: the echo engine, whose warm-up lasts until the test creates the gate file. */
const slowWarm: Engine = {
  run: echo.run,
  async warm() {
    const gate = process.env[WARM_GATE_ENV];
    while (gate && !fs.existsSync(gate)) await new Promise((r) => setTimeout(r, 50));
  },
};
export default slowWarm;
