import type { Engine } from '../../src/engines/types.js';
import echo from './echo.js';

/** Test-only: the echo engine after a 1.5 s wait, long enough to act on a job while it runs. */
const slowEcho: Engine = {
  async run(input, ctx) {
    ctx.progress({ stage: 'waiting', percent: 10 });
    await new Promise((r) => setTimeout(r, 1500));
    return echo.run(input, ctx);
  },
};
export default slowEcho;
