import { detectFaces, releaseFaces } from '../models/faces.js';
import type { TaskEngine } from '../types.js';
import { analysePhoto } from './photo-analysis.js';

/**
 * The recommendation analysis with face detection, run as a task of the engine pool: the face model runs on
 * tfjs-wasm, synchronously, so it must stay off the API's event loop. Returns no image, only the measurements.
 */
const photoAnalysis: TaskEngine = {
  async run(input) {
    return { images: [], metadata: { analysis: await analysePhoto(input.image, detectFaces) } };
  },
  release: releaseFaces,
};

export default photoAnalysis;
