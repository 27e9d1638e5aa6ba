import type { Params } from '@ai-editor/core';
import type { SamPoint } from '../models/sam.js';

/** What a selection asks for, in the photo's pixels (engines/select/sam-select.ts answers it). */
export interface SelectRequest {
  /** The first point is the click that chose the object; later ones add (label 1) or take away (label 0). */
  points: SamPoint[];
  /** A box drawn around the object: the decoder answers it directly (with any points). */
  box?: { x0: number; y0: number; x1: number; y1: number };
  /** A step on the ladder from the object: -1 smaller, +1 larger, … (clamped to the ladder). */
  level?: number;
}

/** The request as the service put it in `params` (services/select-object-api.ts has checked it). */
export function requestOf(params: Params): SelectRequest {
  const numbers = (v: unknown) => (typeof v === 'string' && v ? v.split(',').map(Number) : []);
  const points: SamPoint[] = String(params.points ?? '')
    .split(';')
    .filter(Boolean)
    .map((p) => {
      const [x = 0, y = 0, label = 1] = numbers(p);
      return { x, y, label: label ? 1 : 0 };
    });
  const [x0, y0, x1, y1] = numbers(params.box);
  const box = x1 === undefined || y1 === undefined ? undefined : { x0: x0 as number, y0: y0 as number, x1, y1 };
  return { points, box, level: Number(params.level ?? 0) };
}

/** The request in `params`' flat form (the engine pool carries strings and numbers). */
export function paramsOf(request: SelectRequest): Params {
  const params: Params = {
    points: request.points.map((p) => `${p.x},${p.y},${p.label}`).join(';'),
    level: request.level ?? 0,
  };
  if (request.box) params.box = [request.box.x0, request.box.y0, request.box.x1, request.box.y1].join(',');
  return params;
}
