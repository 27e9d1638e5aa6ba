/**
 * The painted cases the fill tests run: copies of cases of the fill bench's seen sets (bench/fill/painted-cases.ts;
 * never a case of the held-out set that judges the next change), each with its number there, which seeds the shape
 * of its blobs. Their photos are fixtures the tests share with the bench.
 */
import { fixturePixels } from '../../../test-support/engine-ctx.js';
import { type PaintedCase, type PaintedCaseSpec, paintCase } from '../../../test-support/painted-cases.js';

const CASES: (PaintedCaseSpec & { index: number })[] = [
  {
    index: 2,
    name: 'camera-head',
    kind: 'touch',
    ground: 'sky by the hair',
    photo: 'camera.png',
    blobs: [{ cx: 228, cy: 58, rx: 20, ry: 16 }],
  },
  {
    index: 3,
    name: 'camera-date',
    kind: 'text',
    ground: 'sky',
    photo: 'camera.png',
    text: { s: '2019', x: 30, y: 20, size: 26, r: 3 },
  },
  {
    index: 22,
    name: 'coins-row',
    kind: 'touch',
    ground: 'table by two coins',
    photo: 'coins.png',
    blobs: [{ cx: 155, cy: 160, rx: 16, ry: 14 }],
  },
  {
    index: 46,
    name: 'boats-post',
    kind: 'touch',
    ground: 'lake by a mooring post',
    photo: 'boats.jpg',
    blobs: [{ cx: 386, cy: 170, rx: 11, ry: 11 }],
  },
  {
    index: 54,
    name: 'storm-rail',
    kind: 'across',
    ground: "a guard rail's stripes",
    photo: 'storm.jpg',
    blobs: [{ cx: 300, cy: 316, rx: 12, ry: 16 }],
  },
  {
    index: 61,
    name: 'poplars-tree',
    kind: 'touch',
    ground: 'shaded hillside by a poplar',
    photo: 'poplars.jpg',
    blobs: [{ cx: 403, cy: 358, rx: 11, ry: 12 }],
  },
  {
    index: 66,
    name: 'bridge-shore',
    kind: 'across',
    ground: "the far bank's lit shoreline over the river",
    photo: 'bridge.jpg',
    blobs: [{ cx: 88, cy: 342, rx: 11, ry: 11 }],
  },
  {
    index: 200,
    name: 'aquarium-head',
    kind: 'touch',
    ground: "the lit water above a man's head",
    photo: 'aquarium.jpg',
    blobs: [{ cx: 232, cy: 203, rx: 11, ry: 11 }],
  },
  {
    index: 306,
    name: 'bicycle-bar',
    kind: 'across',
    ground: 'the painted white top tube across the asphalt, a leaf or two on it',
    photo: 'bicycle.jpg',
    blobs: [{ cx: 420, cy: 157, rx: 12, ry: 12 }],
  },
  {
    index: 268,
    name: 'blossom-date',
    kind: 'text',
    ground: 'the blue sky between the branches',
    photo: 'blossom.jpg',
    text: { s: '2019', x: 446, y: 82, size: 24, r: 2 },
  },
];

/** The case of that name, painted over its fixture. */
export async function paintedCase(name: string): Promise<PaintedCase> {
  const spec = CASES.find((c) => c.name === name);
  if (!spec) throw new Error(`No painted test case ${name}`);
  const { index, ...rest } = spec;
  return paintCase(rest, index, await fixturePixels(spec.photo));
}
