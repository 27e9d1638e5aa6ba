import type { Engine } from '../../src/engines/types.js';

/** Test-only: an engine with a bug. Reading a property of a photo that is not there throws a TypeError. */
const fault: Engine = {
  async run() {
    const photo = null as unknown as { width: number };
    return { images: [], metadata: { width: photo.width } };
  },
};
export default fault;
