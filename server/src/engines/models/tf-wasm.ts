import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import * as tf from '@tensorflow/tfjs';
import { setWasmPaths } from '@tensorflow/tfjs-backend-wasm';

/**
 * tfjs on its WebAssembly backend (docs/models.md#tfjs-runs-on-webassembly: tfjs-node cannot install here, and wasm is ~25x faster than the
 * cpu backend). One backend per worker thread, shared by every tfjs model in it; the .wasm files are read from the
 * installed package, never fetched.
 */
const require = createRequire(import.meta.url);
let ready: Promise<typeof tf> | undefined;

export function tfWasm(): Promise<typeof tf> {
  ready ??= (async () => {
    if (tf.getBackend() !== 'wasm') {
      setWasmPaths(`${path.dirname(require.resolve('@tensorflow/tfjs-backend-wasm'))}${path.sep}`);
      if (!(await tf.setBackend('wasm'))) throw new Error('The tfjs wasm backend failed to start');
    }
    await tf.ready();
    return tf;
  })();
  return ready;
}

/** Loads a tfjs graph model (model.json + weight shards) from a directory on disk. */
export async function loadGraphModel(dir: string, name: string): Promise<tf.GraphModel> {
  const t = await tfWasm();
  const json = JSON.parse(fs.readFileSync(path.join(dir, `${name}.json`), 'utf8')) as {
    modelTopology: object;
    weightsManifest: { paths: string[]; weights: tf.io.WeightsManifestEntry[] }[];
  };
  const weights = Buffer.concat(
    json.weightsManifest.flatMap((g) => g.paths.map((p) => fs.readFileSync(path.join(dir, p)))),
  );
  return t.loadGraphModel(
    t.io.fromMemory({
      modelTopology: json.modelTopology,
      weightSpecs: json.weightsManifest.flatMap((g) => g.weights),
      weightData: weights.buffer.slice(weights.byteOffset, weights.byteOffset + weights.byteLength) as ArrayBuffer,
    }),
  );
}
