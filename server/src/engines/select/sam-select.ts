import { type SamAnswer, type SamPoint, type SamPrompt, samMask, samMaskBox, samUpsample } from '../models/sam.js';
import { maskBox, type Rect } from '../raster/geometry.js';
import { components, distanceTo, pieceRuns } from '../raster/morphology.js';
import type { Part } from './grow.js';
import type { SelectRequest } from './request.js';

/**
 * Select object on a segment-anything decoder (docs/select-object.md): from the visitor's points (or box) to the
 * mask of one object, with the larger and smaller answers around it (part → object → group) a step away.
 *
 * The decoder alone, given one click, answers whatever region the click most plausibly belongs to: often the
 * object, but for two objects that touch (two cups, people side by side) the pair, and on a detailed object a part.
 * So a click's answer is found in steps:
 *
 * 1. The click alone gives the region (the "group" when it holds several objects). When what it gives is the inside
 *    of one of the decoder's larger answers (a cup's coffee, a face), that answer is the region.
 * 2. The region is split where its shape says it is several things joined by narrow necks: the cores of its
 *    distance map (the pixels deeper inside it than CORE_DEPTH of its deepest) that are of some size are its
 *    objects (or, for people standing close, the columns under their faces); each pixel of the region belongs to
 *    the nearest core, and the box of the click's share, with the click, prompts the decoder again. Of its answers
 *    that leave the other cores out, the one most like the share is kept.
 * 3. A region that does not split may still be an object beside another (a cup beside a person): the decoder's
 *    other answers to the click are looked at for one that meets the rest of the region along a seam only.
 *    Or it may be an object among clutter (a cup among glasses, toys, fruit), which no neck or seam sets apart:
 *    the decoder's single-mask answer is the object when it is much smaller than the region and another of its
 *    answers agrees with it.
 * 4. A click on the people's matte is answered from the matte when the object so far is a person with what she
 *    stands against or beside, or when a click under a face lies on a piece of several people: the piece under the
 *    click is split as in step 2 (onPerson).
 *
 * The ladder of answers the visitor can step through with Smaller and Larger: a part (the click with a box half
 * the object's size around it), the object, and a step larger: the people, for one of several on the people's
 * matte; the region when the object was split out of it; or else the group it belongs to (the smallest of the
 * decoder's answers to the click that holds it), or where none does the object's box grown by half (what it stands
 * on, what it is with). Duplicates (IoU above SAME) are dropped.
 */

/** Decodes a prompt into an answer at the given size (samSelect asks at its analysis size). */
export type Decoder = (prompt: SamPrompt, size: { width: number; height: number }) => Promise<SamAnswer>;
/** The boxes of the people's faces in the photo: x, y, width, height in its pixels. */
export type Faces = [number, number, number, number][];
/**
 * What the photo says of its people: their faces, and where faces were found, the people's matte at the analysis
 * size (analysisSize; 1 = a person), which tells a person from what stands behind them.
 */
export interface People {
  faces: Faces;
  matte?: Uint8Array;
}

export interface Selection {
  /** 0/255 over the part of the photo where the answer lies; undefined when nothing is selected. */
  mask?: Part;
  /** The step on the ladder that was answered, and the steps there are below and above it. */
  level: number;
  smaller: number;
  larger: number;
}

/** The region's long side at which its shape is analysed: the decoder answers at this size for every candidate. */
const ANALYSIS_SIDE = 256;
/**
 * A core is a region's pixels deeper than this share of its deepest pixel. On the tuning pairs 0.6 split every
 * touching pair (0.5 missed the two cups, whose saucers overlap in a wide neck) and no single object.
 */
const CORE_DEPTH = 0.6;
/** Cores smaller than this share of the largest one are a limb or a handle, not an object of their own. */
const MIN_CORE = 0.15;
/** A split answer may hold at most this share of another core: more, and the split failed. */
const MAX_LEAK = 0.2;
/**
 * Pieces of an answer smaller than this share of its main piece (the click's, or the largest) are specks of a
 * neighbour, not part of the object. On the seen cases the stray pieces were at most 7 % of the main one and the
 * object's own pieces (a cup's spoon) joined to it; 0.1, 0.25 and 0.5 gave the same answers.
 */
const MIN_PIECE = 0.1;
/**
 * An answer beside others (besideOthers) covers at most this share of the click's region (a smaller answer, not the
 * region again) and meets the region's rest along at most MAX_SEAM of its outline. On the seen cases the objects
 * beside others met the rest along at most a third of their outline; the other answers smaller than the region,
 * bodies without their heads set aside, along more than 0.45.
 */
const MAX_SHARE = 0.9;
const MAX_SEAM = 0.4;
/**
 * The single-mask answer is an object among clutter (amongClutter) when it covers at most IN_CLUTTER of the region
 * and another answer has an IoU of AGREE with it. On the seen cases the cups among clutter were a third of their
 * region or less and agreed at 0.92 or more; the answers it must not take (a person's part, a cup's) agreed at 0.73
 * or less, or were 0.6 of their region or more.
 */
const IN_CLUTTER = 0.5;
const AGREE = 0.8;
/**
 * A person's core reaches this many face heights down from the top of their face. On the seen pairs of people 2
 * and 3 gave the same answers within 0.04.
 */
const PERSON_HEIGHT = 3;
/** An answer to a click on a person with this share outside the people's matte holds more: a round figure, untuned. */
const OUTSIDE_MATTE = 0.2;
/**
 * What the click alone gives is the inside of a larger answer (enclosing) when the larger one holds HELD of it and
 * meets ENCLOSED of its outline (the one value tried: on the seen clicks a cup's coffee and a face met the cup or the
 * person along 0.76–1.0 of theirs). The larger answer is not a thing of its own but what things lie on when it
 * covers more than ENCLOSING_AT_MOST of the photo (on the seen clicks the cups and people were 0.11 of it or less,
 * the book, table or clouds under them 0.28–0.62), or when the smaller one holds HEART of one of its cores (a cup
 * beside others: 0.99; a coffee or a face at most 0.37).
 */
const HELD = 0.95;
const ENCLOSED = 0.75;
const ENCLOSING_AT_MOST = 0.2;
const HEART = 0.9;
/** Two answers with an IoU above this are one step of the ladder. */
const SAME = 0.9;

type Box = { x0: number; y0: number; x1: number; y1: number };
export type Mask = { data: Uint8Array; width: number; height: number };

interface Candidate {
  prompt: SamPrompt;
  mask: Mask;
  /**
   * Its low-resolution logits: scaled up, they are the mask at the photo's size without another decoder pass (the
   * decoder scales its own the same way). For one of the decoder's other answers the prompt does not give them.
   */
  lowRes?: Float32Array;
}

/** The size at which a photo's regions are analysed (ANALYSIS_SIDE on its long side). */
export function analysisSize(photo: { width: number; height: number }): { width: number; height: number } {
  const scale = ANALYSIS_SIDE / Math.max(photo.width, photo.height);
  return {
    width: Math.max(1, Math.round(photo.width * scale)),
    height: Math.max(1, Math.round(photo.height * scale)),
  };
}

export async function samSelect(
  request: SelectRequest,
  photo: { width: number; height: number },
  decode: Decoder,
  people: People,
): Promise<Selection> {
  const scale = ANALYSIS_SIDE / Math.max(photo.width, photo.height);
  const small = analysisSize(photo);
  const [click, ...more] = request.points;
  let ladder: Candidate[];
  let at = 0;
  let unknown = { smaller: false, larger: false };
  if (request.box || !click) {
    ladder = [{ prompt: { points: [], box: request.box }, mask: { data: new Uint8Array(), width: 0, height: 0 } }];
  } else {
    const found = await clickLadder(click, photo, scale, small, decode, people, request.level ?? 0);
    ladder = found.ladder;
    at = ladder.indexOf(found.object);
    unknown = found.unknown;
  }
  const index = Math.min(ladder.length - 1, Math.max(0, at + (request.level ?? 0)));
  const chosen = ladder[index] as Candidate;
  // The visitor's further points refine the chosen answer: with its box, if it has one, and its mask fed back.
  let prompt: SamPrompt = { ...chosen.prompt, points: [...chosen.prompt.points, ...more] };
  if (more.length && !request.box) {
    prompt = { ...prompt, mask: chosen.lowRes };
  }
  // The answer's low-resolution logits scaled up to the photo: what the decoder would answer at its size, a pass
  // cheaper (docs/select-object.md).
  const lowRes = chosen.lowRes && !more.length ? chosen.lowRes : (await decode(prompt, small)).lowRes;
  const rect = samMaskBox(lowRes, photo);
  return {
    mask: rect && { data: withoutSpecks(samMask(lowRes, photo, rect), rect, request.points), rect },
    level: index - at,
    // A step not computed for this answer (it was not asked for) is offered: asking computes it.
    smaller: index === at && unknown.smaller ? 1 : index,
    larger: index === at && unknown.larger ? 1 : ladder.length - 1 - index,
  };
}

async function clickLadder(
  click: SamPoint,
  photo: { width: number; height: number },
  scale: number,
  small: { width: number; height: number },
  decode: Decoder,
  people: People,
  level: number,
): Promise<{ ladder: Candidate[]; object: Candidate; unknown: { smaller: boolean; larger: boolean } }> {
  const point = [{ ...click, label: 1 as const }];
  const answerTo = (prompt: SamPrompt) => decode(prompt, small);
  const run = async (prompt: SamPrompt): Promise<Candidate> => {
    const answer = await answerTo(prompt);
    return { prompt, mask: toMask(answer), lowRes: answer.lowRes };
  };
  const first = await decode({ points: point }, small);
  const clicked: Candidate = { prompt: { points: point }, mask: toMask(first), lowRes: first.lowRes };
  // The decoder's four answers to the click (SAM's single mask first), at the analysis size: steps 1 and 3 look at them.
  const answers: Candidate[] = first.candidates.map((c) => ({
    prompt: { points: point },
    mask: likeRegion(c.lowRes, photo, clicked.mask),
    lowRes: c.lowRes,
  }));
  // What the click lies on may be the inside of a larger thing (a cup's coffee, a face): that thing is the region.
  const region = enclosing(answers, clicked.mask) ?? clicked;
  // The faces at the analysis size.
  const heads = people.faces.map(([x, y, fw, fh]) => ({
    left: x * scale,
    top: y * scale,
    width: fw * scale,
    height: fh * scale,
  }));
  // The object steps 2 and 3 find, computed when needed: a click on one of several people is answered without it.
  let fromRegion: Promise<Candidate> | undefined;
  const found = () =>
    (fromRegion ??= (async () =>
      (await split(region.mask, click, scale, heads, photo, answerTo)) ??
      besideOthers(answers, region.mask, click, scale, heads) ??
      (region === clicked ? amongClutter(answers, region.mask, click, scale) : undefined) ??
      region)());
  const matte = people.matte && { data: people.matte, width: small.width, height: small.height };
  const person = matte && (await onPerson(found, matte, click, scale, heads, photo, answerTo));
  const object = person?.object ?? (await found());
  const box = maskBox(object.mask);
  const candidates: Candidate[] = [object];
  // Larger: the people, for a person split out of several on the people's matte; the region, for an object split
  // out of it; else the group the object belongs to among the click's answers. The people (their box) and, where no
  // group is found, the object's box grown by half cost a decoder pass, as Smaller always does: those steps are
  // computed when asked for (a click's answer only says they are there), which keeps a click to one to three passes.
  const above = person?.crowd ? undefined : object !== region ? region : groupOf(answers, object.mask);
  const unknown = { smaller: Boolean(box) && level >= 0, larger: Boolean(box) && !above && level <= 0 };
  if (box) {
    const side = Math.max(box.width, box.height) / scale;
    const half = side / 4;
    if (!unknown.smaller) {
      candidates.unshift(
        await run({
          points: point,
          box: clampBox({ x0: click.x - half, y0: click.y - half, x1: click.x + half, y1: click.y + half }, photo),
        }),
      );
    }
    if (above) candidates.push(above);
    else if (!unknown.larger) {
      // The people's box, or the object's box grown by half.
      const grown = {
        left: box.left - box.width / 4,
        top: box.top - box.height / 4,
        width: 1.5 * box.width,
        height: 1.5 * box.height,
      };
      candidates.push(await run({ points: point, box: person?.crowd ?? clampBox(photoBox(grown, scale), photo) }));
    }
  }
  // Smallest first; an answer like one already on the ladder (or empty) is not a step of its own.
  const ladder: Candidate[] = [];
  for (const c of candidates.sort((a, b) => area(a.mask) - area(b.mask))) {
    if (c !== object && (area(c.mask) === 0 || ladder.some((d) => iou(c.mask, d.mask) > SAME))) continue;
    const same = ladder.findIndex((d) => iou(c.mask, d.mask) > SAME);
    if (same >= 0) ladder.splice(same, 1);
    ladder.push(c);
  }
  return { ladder, object, unknown };
}

/**
 * The decoder's largest other answer to the click that holds what the click alone gave (`inner`) as its inside (a
 * cup's coffee, a face within hair and collar): `inner` meets it along most of its outline, and it is a thing, not
 * what things lie on (see ENCLOSED). Undefined when there is none.
 */
function enclosing(answers: Candidate[], inner: Mask): Candidate | undefined {
  const size = area(inner);
  let best: Candidate | undefined;
  for (const c of answers) {
    const outer = area(c.mask);
    if (outer <= size || outer > ENCLOSING_AT_MOST * c.mask.data.length) continue;
    if (overlap(inner, c.mask) < HELD * size || seam(inner, c.mask) < ENCLOSED) continue;
    if (objectCores(c.mask).some((core) => shareIn(core, inner) >= HEART)) continue;
    if (!best || outer > area(best.mask)) best = c;
  }
  return best;
}

/**
 * The group an object belongs to (two cups side by side, a cup with the person beside it): the smallest of the
 * decoder's answers to the click that holds the object (HELD of it) and is a step larger (not alike: IoU at most SAME).
 */
function groupOf(answers: Candidate[], object: Mask): Candidate | undefined {
  const size = area(object);
  return answers
    .filter((c) => overlap(object, c.mask) >= HELD * size && iou(c.mask, object) <= SAME)
    .sort((a, b) => area(a.mask) - area(b.mask))[0];
}

/**
 * The click's object inside a region that is several objects joined by necks (see the top of this file), or
 * undefined when the region is one thing (or the split leaks into the others).
 */
async function split(
  region: Mask,
  click: SamPoint,
  scale: number,
  heads: Rect[],
  photo: { width: number; height: number },
  answerTo: (prompt: SamPrompt) => Promise<SamAnswer>,
): Promise<Candidate | undefined> {
  let cores: { pixels: number[] }[] = objectCores(region);
  if (cores.length < 2) cores = personCores(region, heads);
  if (cores.length < 2) return undefined;
  return shareAnswer(region, cores, click, scale, photo, answerTo);
}

/**
 * A click on a person (on the people's matte): the click's person among the people of the matte's piece under the
 * click, the way split answers (necks, else the faces as cores). Under a face (in a face's column), undefined where the
 * object `found` by steps 2 and 3 is likely right: the piece holds one person and `found` lies within the matte.
 * Elsewhere on the piece (an arm, a hand, or a cup she holds), undefined unless `found` holds a person's core (more
 * than MAX_LEAK of it) and either spills past the matte or holds two people's. (The decoder joins a person to the
 * wall of her colour she stands against, or to the people beside her; the matte tells them apart.) With the
 * person, where the piece holds several people, the box of the piece: the people, a step larger.
 */
async function onPerson(
  found: () => Promise<Candidate>,
  matte: Mask,
  click: SamPoint,
  scale: number,
  heads: Rect[],
  photo: { width: number; height: number },
  answerTo: (prompt: SamPrompt) => Promise<SamAnswer>,
): Promise<{ object: Candidate; crowd?: Box } | undefined> {
  const { width: w, height: h } = matte;
  const at = clickIndex(click, scale, matte);
  if (!matte.data[at]) return undefined;
  const piece = components(matte.data, w, h, 1, 1).find((c) => c.pixels.includes(at));
  if (!piece) return undefined;
  const people: Mask = { data: new Uint8Array(w * h), width: w, height: h };
  for (const p of piece.pixels) people.data[p] = 1;
  const persons = personCores(people, heads);
  if (!persons.length) return undefined;
  // Under a face, a piece of several people is split at once. Elsewhere the matte may hold what a person holds or
  // stands beside (a cup), so the object found so far decides.
  const underFace = persons.some((c) => c.pixels.includes(at));
  if (!underFace || persons.length < 2) {
    const object = (await found()).mask;
    const spills = spillsPastMatte(object, matte);
    const held = persons.filter((c) => shareIn(c, object) > MAX_LEAK);
    if (underFace ? !spills : !held.length || (!spills && held.length < 2)) return undefined;
  }
  // Necks part a person from what the matte holds beside them first.
  const cores = objectCores(people);
  const object = await shareAnswer(people, cores.length < 2 ? persons : cores, click, scale, photo, answerTo);
  if (!object) return undefined;
  const box = maskBox(people);
  return { object, crowd: box && persons.length > 1 ? photoBox(withMargin(box), scale) : undefined };
}

/**
 * Whether an answer holds what the people stand against: OUTSIDE_MATTE of it or more lies outside their matte.
 */
function spillsPastMatte(answer: Mask, matte: Mask): boolean {
  let inside = 0;
  let outside = 0;
  for (let i = 0; i < answer.data.length; i++) {
    if (!answer.data[i]) continue;
    if (matte.data[i]) inside++;
    else outside++;
  }
  return outside >= OUTSIDE_MATTE * (inside + outside);
}

/**
 * The click's object in a region that is the cores' objects: the box of the click's share of the region (its
 * pixels nearest the click's core), with the click, prompts the decoder; of its answers that hold the click and
 * keep out of the other cores, the one most like the share. Undefined when the answer leaks into the others.
 */
async function shareAnswer(
  region: Mask,
  cores: { pixels: number[] }[],
  click: SamPoint,
  scale: number,
  photo: { width: number; height: number },
  answerTo: (prompt: SamPrompt) => Promise<SamAnswer>,
): Promise<Candidate | undefined> {
  // The click's core is the one nearest the click; its share of the region is its object's outline.
  const at = clickIndex(click, scale, region);
  const { nearest, boxes } = coreShares(region, cores);
  const mine = nearest[at] as number;
  const box = boxes[mine];
  if (!box) return undefined;
  const prompt = { points: [{ ...click, label: 1 as const }], box: photoBox(withMargin(box), scale) };
  const answer = await answerTo(prompt);
  const others = cores.filter((_, k) => k !== mine);
  const leak = (m: Mask) => Math.max(0, ...others.map((c) => shareIn(c, m)));
  const given: Candidate = { prompt, mask: toMask(answer), lowRes: answer.lowRes };
  if (leak(given.mask) > MAX_LEAK) return undefined;
  // Of the decoder's answers that hold the click and keep out of the others, the one most like the click's share.
  const { width: w, height: h } = region;
  const share: Mask = { data: region.data.map((v, i) => (v && nearest[i] === mine ? 1 : 0)), width: w, height: h };
  let best = given;
  for (const c of answer.candidates) {
    const mask = likeRegion(c.lowRes, photo, region);
    if (mask.data[at] && leak(mask) <= MAX_LEAK && iou(mask, share) > iou(best.mask, share))
      best = { prompt, mask, lowRes: c.lowRes };
  }
  return best;
}

/**
 * People standing close make one broad shape without necks; their faces still tell them apart. Each face of the
 * region is a core: the region's pixels in the face's column, from its top down PERSON_HEIGHT face heights.
 */
function personCores(region: Mask, heads: Rect[]): { pixels: number[] }[] {
  const { data, width: w, height: h } = region;
  const cores: { pixels: number[] }[] = [];
  for (const face of heads) {
    const [x0, x1] = [Math.max(0, Math.round(face.left)), Math.min(w, Math.round(face.left + face.width))];
    const [y0, y1] = [
      Math.max(0, Math.round(face.top)),
      Math.min(h, Math.round(face.top + PERSON_HEIGHT * face.height)),
    ];
    if (!data[centreOf(face, w)]) continue;
    const pixels: number[] = [];
    for (let yy = y0; yy < y1; yy++) for (let xx = x0; xx < x1; xx++) if (data[yy * w + xx]) pixels.push(yy * w + xx);
    cores.push({ pixels });
  }
  return cores;
}

/**
 * The click's object among the decoder's other answers to the same click, when the region is one shape (see the top
 * of this file): the largest that holds the click, covers at most MAX_SHARE of the region, and meets the rest of the
 * region along at most MAX_SEAM of its outline (an object beside another, where a part lies inside its object).
 * A person's body is joined to their head by a short neck as two objects are by their seam, so an answer that a
 * face of the region lies on (a body without its head) is a part. Undefined when no answer is the object.
 */
function besideOthers(
  answers: Candidate[],
  region: Mask,
  click: SamPoint,
  scale: number,
  heads: Rect[],
): Candidate | undefined {
  const at = clickIndex(click, scale, region);
  const whole = area(region);
  const found = answers.filter(
    (c) => c.mask.data[at] && area(c.mask) <= MAX_SHARE * whole && seam(c.mask, region) <= MAX_SEAM,
  );
  const wholes = found.filter((c) => !heads.some((head) => headless(c.mask, region, head)));
  return wholes.sort((a, b) => area(b.mask) - area(a.mask))[0];
}

/**
 * The click's object among clutter (see the top of this file): the decoder's single-mask answer, when it holds the
 * click, covers at most IN_CLUTTER of the region, and one of the decoder's other answers (not the region) agrees
 * with it. Undefined otherwise.
 */
function amongClutter(answers: Candidate[], region: Mask, click: SamPoint, scale: number): Candidate | undefined {
  const [single, ...multi] = answers;
  if (!single) return undefined;
  const { mask } = single;
  if (!mask.data[clickIndex(click, scale, region)] || area(mask) > IN_CLUTTER * area(region)) return undefined;
  const agrees = multi.some((c) => iou(c.mask, region) <= SAME && iou(c.mask, mask) >= AGREE);
  return agrees ? single : undefined;
}

/**
 * Whether a face of the region lies outside the answer, on top of it: the answer reaches into the face's box or
 * the face's height below it (the neck and shoulders).
 */
function headless(answer: Mask, region: Mask, face: Rect): boolean {
  const { data, width: w, height: h } = answer;
  const centre = centreOf(face, w);
  if (!region.data[centre] || data[centre]) return false;
  const [x0, x1] = [Math.max(0, Math.round(face.left)), Math.min(w, Math.round(face.left + face.width))];
  const [y0, y1] = [Math.max(0, Math.round(face.top)), Math.min(h, Math.round(face.top + 2 * face.height))];
  for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) if (data[y * w + x]) return true;
  return false;
}

/** The index of the click's pixel in a mask at the analysis size. */
function clickIndex(click: SamPoint, scale: number, mask: Mask): number {
  const { width: w, height: h } = mask;
  return Math.min(w - 1, Math.round(click.x * scale)) + Math.min(h - 1, Math.round(click.y * scale)) * w;
}

/** The index of a face's centre pixel in a mask `w` wide. */
function centreOf(face: Rect, w: number): number {
  return Math.round(face.top + face.height / 2) * w + Math.round(face.left + face.width / 2);
}

/** The share of a mask's outline (inside the photo) where it meets the rest of the region around it. */
function seam(mask: Mask, region: Mask): number {
  const { data, width: w, height: h } = mask;
  let outline = 0;
  let shared = 0;
  for (let y = 1; y < h - 1; y++) {
    for (let x = 1; x < w - 1; x++) {
      const i = y * w + x;
      if (!data[i]) continue;
      const out = [i - 1, i + 1, i - w, i + w].filter((j) => !data[j]);
      if (!out.length) continue;
      outline++;
      if (out.some((j) => region.data[j])) shared++;
    }
  }
  return outline ? shared / outline : 0;
}

/** A pixel of margin at the analysis size around a core's share: the share's box is its object's outline. */
export function withMargin(box: Rect): Rect {
  return { left: box.left - 1, top: box.top - 1, width: box.width + 2, height: box.height + 2 };
}

/**
 * Which core each pixel is nearest to, and the box of each core's share of the region (the region's pixels nearest
 * to it): the outline of the object each core is the heart of.
 */
export function coreShares(
  region: Mask,
  cores: { pixels: number[] }[],
): { nearest: Int32Array; boxes: (Rect | null)[] } {
  const { data, width: w, height: h } = region;
  const near = cores.map((c) => {
    const m = new Uint8Array(w * h);
    for (const p of c.pixels) m[p] = 1;
    return distanceTo(m, w, h);
  });
  const nearest = new Int32Array(w * h);
  for (let i = 0; i < nearest.length; i++) {
    let best = 0;
    for (let k = 1; k < near.length; k++)
      if (((near[k] as Float32Array)[i] as number) < ((near[best] as Float32Array)[i] as number)) best = k;
    nearest[i] = best;
  }
  const boxes = cores.map((_, k) => {
    const share = new Uint8Array(w * h);
    for (let i = 0; i < share.length; i++) if (data[i] && nearest[i] === k) share[i] = 1;
    return maskBox({ data: share, width: w, height: h });
  });
  return { nearest, boxes };
}

/**
 * The cores of a 0/1 mask's shape: its pixels deeper inside it than CORE_DEPTH of its deepest (distance to its
 * outside), in connected pieces of at least MIN_CORE of the largest one; each with its deepest pixel. Several
 * cores are several things joined by narrow necks.
 */
export function objectCores(region: Mask): { pixels: number[]; deepest: number }[] {
  const { data, width: w, height: h } = region;
  // The photo's edge counts as outside: a subject the frame cuts is deepest in its body, not at the cut.
  const outside = new Uint8Array(data.length);
  for (let i = 0; i < data.length; i++) {
    const x = i % w;
    const y = (i - x) / w;
    outside[i] = !data[i] || x === 0 || y === 0 || x === w - 1 || y === h - 1 ? 1 : 0;
  }
  const depth = distanceTo(outside, w, h);
  let deepest = 0;
  for (let i = 0; i < data.length; i++) if (data[i] && (depth[i] as number) > deepest) deepest = depth[i] as number;
  if (deepest === 0) return [];
  const inside = depth.map((d, i) => (data[i] ? d : 0));
  const found = components(inside, w, h, CORE_DEPTH * deepest, CORE_DEPTH * deepest);
  const largest = Math.max(...found.map((c) => c.pixels.length));
  return found
    .filter((c) => c.pixels.length >= MIN_CORE * largest)
    .map((c) => ({
      pixels: c.pixels,
      deepest: c.pixels.reduce((a, b) => ((depth[b] as number) > (depth[a] as number) ? b : a)),
    }));
}

/** One of the decoder's other answers (its low-resolution logits) as a mask the size of the region. */
function likeRegion(lowRes: Float32Array, photo: { width: number; height: number }, region: Mask): Mask {
  return toMask({ logits: samUpsample(lowRes, photo, region), width: region.width, height: region.height });
}

function toMask(answer: Pick<SamAnswer, 'logits' | 'width' | 'height'>): Mask {
  const data = new Uint8Array(answer.logits.length);
  for (let i = 0; i < data.length; i++) data[i] = (answer.logits[i] as number) > 0 ? 1 : 0;
  return { data, width: answer.width, height: answer.height };
}

/**
 * The mask over `rect` of the photo without its specks: a piece holding one of the visitor's added points (or their
 * click) stays, and so does one at least MIN_PIECE of the largest piece that stays.
 */
export function withoutSpecks(mask: Buffer, rect: Rect, points: SamPoint[]): Buffer {
  const { width: w, height: h } = rect;
  const runs = pieceRuns(mask, w, h);
  if (runs.sizes.length < 2) return mask;
  const held = new Set<number>();
  for (const p of points) {
    const [x, y] = [Math.round(p.x) - rect.left, Math.round(p.y) - rect.top];
    if (p.label !== 1 || x < 0 || y < 0 || x >= w || y >= h) continue;
    for (let r = 0; r < runs.y.length; r++) {
      if (runs.y[r] === y && (runs.x0[r] as number) <= x && x < (runs.x1[r] as number))
        held.add(runs.piece[r] as number);
    }
  }
  const main = Math.max(...(held.size ? [...held].map((k) => runs.sizes[k] as number) : runs.sizes));
  const out = Buffer.alloc(mask.length);
  for (let r = 0; r < runs.y.length; r++) {
    const k = runs.piece[r] as number;
    if (!held.has(k) && (runs.sizes[k] as number) < MIN_PIECE * main) continue;
    const row = (runs.y[r] as number) * w;
    out.fill(255, row + (runs.x0[r] as number), row + (runs.x1[r] as number));
  }
  return out;
}

/** A box at the analysis size as the decoder's box prompt, in the photo's pixels. */
function photoBox(r: Rect, scale: number): Box {
  return { x0: r.left / scale, y0: r.top / scale, x1: (r.left + r.width) / scale, y1: (r.top + r.height) / scale };
}

function clampBox(b: Box, photo: { width: number; height: number }): Box {
  return {
    x0: Math.max(0, b.x0),
    y0: Math.max(0, b.y0),
    x1: Math.min(photo.width, b.x1),
    y1: Math.min(photo.height, b.y1),
  };
}

function area(m: Mask): number {
  let n = 0;
  for (const v of m.data) n += v;
  return n;
}

/** The share of a core's pixels that a mask holds. */
function shareIn(core: { pixels: number[] }, mask: Mask): number {
  let n = 0;
  for (const p of core.pixels) n += mask.data[p] as number;
  return core.pixels.length ? n / core.pixels.length : 0;
}

/** The pixels two masks share. */
function overlap(a: Mask, b: Mask): number {
  let n = 0;
  for (let i = 0; i < a.data.length; i++) if (a.data[i] && b.data[i]) n++;
  return n;
}

function iou(a: Mask, b: Mask): number {
  let inter = 0;
  let union = 0;
  for (let i = 0; i < a.data.length; i++) {
    if (a.data[i] && b.data[i]) inter++;
    if (a.data[i] || b.data[i]) union++;
  }
  return union ? inter / union : 0;
}
