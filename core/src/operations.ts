/**
 * The operation catalogue: the one description of every tool, read by the web app (pages, controls, tutorial)
 * and by the server (validation, engines, rules). Adding an operation is one entry (in its family's file under
 * catalogue/, listed in CATALOGUE below) plus one engine file (docs/engines.md). The entries are kept literal
 * (`as const`), so that each operation's parameters have a precise type (`ParamsOf`): engines receive
 * `{ strength: number }`, not a bag of strings.
 */

import {
  type BooleanParam,
  type NumberParam,
  type OperationDef,
  OUTPUT_PARAMS,
  type ParamDef,
} from './catalogue/entry.js';
import { FACE_AGING, FACE_ENHANCEMENT, FACE_SWAP, STYLE_TRANSFER } from './catalogue/faces.js';
import { TEXT_TO_IMAGE_DIFFUSION, TEXT2IMG } from './catalogue/generate.js';
import {
  CARTOONIZATION,
  COLORIZATION,
  DENOISING,
  HDR_ENHANCEMENT,
  PENCIL_SKETCH,
  PHOTO_RESTORATION,
  SUPER_RESOLUTION,
} from './catalogue/photo.js';
import { BACKGROUND_REMOVAL, IMAGE_INPAINTING, IMAGE_SEGMENTATION, OBJECT_REMOVAL } from './catalogue/regions.js';

export {
  type BooleanParam,
  COLOR_PATTERN,
  type ExpectedCost,
  type InputKind,
  type NumberParam,
  type OperationStatus,
  OUTPUT_PARAMS,
  type OutputFormat,
  type OutputSizeRule,
  type ParamDef,
  type SelectParam,
  type TextParam,
} from './catalogue/entry.js';

/** Every operation, in the order the site lists them; the entries are grouped by family under catalogue/. */
const CATALOGUE = [
  FACE_ENHANCEMENT,
  TEXT2IMG,
  TEXT_TO_IMAGE_DIFFUSION,
  OBJECT_REMOVAL,
  BACKGROUND_REMOVAL,
  SUPER_RESOLUTION,
  COLORIZATION,
  DENOISING,
  STYLE_TRANSFER,
  CARTOONIZATION,
  PENCIL_SKETCH,
  HDR_ENHANCEMENT,
  FACE_AGING,
  IMAGE_INPAINTING,
  IMAGE_SEGMENTATION,
  FACE_SWAP,
  PHOTO_RESTORATION,
] as const satisfies readonly OperationDef[];

type Entry = (typeof CATALOGUE)[number];
export type OperationId = Entry['id'];

export interface Operation<Id extends OperationId = OperationId> extends OperationDef {
  id: Id;
}

/** Every operation makes images: each takes the output parameters after its own. */
export const OPERATIONS: readonly Operation[] = CATALOGUE.map((op) => ({
  ...op,
  params: [...op.params, ...OUTPUT_PARAMS],
}));
export const OPERATION_IDS: readonly OperationId[] = OPERATIONS.map((op) => op.id);

/** One operation's catalogue entry with its literal types (its input kind, mask rule and parameters). */
export type CatalogueEntry<Id extends OperationId> = Extract<Entry, { id: Id }>;

/** The value type of one parameter: numbers, booleans, the union of a select's option values, or text. */
type ValueOf<P extends ParamDef> = P extends NumberParam
  ? number
  : P extends BooleanParam
    ? boolean
    : P extends { color: true }
      ? string
      : P extends { kind: 'select'; options: readonly { value: infer V }[] }
        ? V
        : string;

/** One operation's parameters as parseParams returns them, e.g. `ParamsOf<'denoising'>` is `{ strength: number }`. */
export type ParamsOf<Id extends OperationId> = Id extends OperationId
  ? { [P in [...CatalogueEntry<Id>['params'], ...typeof OUTPUT_PARAMS][number] as P['name']]: ValueOf<P> }
  : never;

const BY_ID = new Map<string, Operation>(OPERATIONS.map((op) => [op.id, op]));

export function isOperationId(id: unknown): id is OperationId {
  return typeof id === 'string' && BY_ID.has(id);
}

/** Whether a tool's page uses Select object (a mask tool, or one that declares it). */
export function usesSelectObject(op: Operation): boolean {
  return op.mask !== undefined || op.selects === true;
}

export function getOperation<Id extends OperationId>(id: Id): Operation<Id>;
export function getOperation(id: string): Operation | undefined;
export function getOperation(id: string): Operation | undefined {
  return BY_ID.get(id);
}

export function operationByRoute(route: string): Operation | undefined {
  return OPERATIONS.find((op) => op.route === route);
}

/** The multipart file fields an operation takes, in order; `file` is always the main photo. */
export function fileFields(op: Operation): { name: 'file' | 'mask' | 'file2'; required: boolean }[] {
  const fields: { name: 'file' | 'mask' | 'file2'; required: boolean }[] = [];
  if (op.input !== 'prompt') fields.push({ name: 'file', required: true });
  if (op.mask) fields.push({ name: 'mask', required: op.mask === 'required' });
  if (op.input === 'two-photos') fields.push({ name: 'file2', required: true });
  return fields;
}
