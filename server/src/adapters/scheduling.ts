import type { Lane } from '@ai-editor/core';

/**
 * Who waits for what: the one scheduling policy of the in-process queue and the engine pool (docs/runtime.md,
 * "Scheduling").
 *
 * - **Lanes.** Work expected to take at most QUICK_LANE_MS (core's durations table: a sketch, a background removal
 *   of an ordinary photo, a Select object click, the photo analysis of the tips) is `quick`; the rest is `heavy`.
 *   Quick slots (engine hosts kept for short work) take quick work only; heavy slots take either, so no slot idles
 *   while work waits.
 * - **A visitor's own work keeps its order**: of each owner's waiting work, only the oldest may go next.
 * - **Earliest expected finish first**: of those, the one whose arrival time plus expected duration is smallest.
 *   A short job overtakes long ones that arrived shortly before it, and a long job is never starved: work that
 *   arrives later carries a later key.
 */
export interface WorkHints {
  lane: Lane;
  /** Expected run time in ms (core's expectedMs). */
  expectedMs: number;
  /** Whose work it is (a session or user id); work without an owner is ordered on its own. */
  owner?: string;
}

export interface Waiting extends WorkHints {
  /** When it started waiting (ms). */
  since: number;
}

/** Whether a slot (a host, or the queue's place for one) of `slot`'s lane may take work of `work`'s lane. */
export const canTake = (slot: Lane, work: Lane): boolean => slot === 'heavy' || work === 'quick';

const key = (w: Waiting) => w.since + w.expectedMs;

/** Index of the work a free slot of `slot`'s lane takes next, or -1 when nothing it may take is waiting. */
export function pickNext(waiting: readonly Waiting[], slot: Lane): number {
  const heads = new Set<string>();
  let best = -1;
  for (let i = 0; i < waiting.length; i++) {
    const w = waiting[i] as Waiting;
    // `waiting` is in arrival order: the first of each owner is their oldest.
    if (w.owner !== undefined) {
      if (heads.has(w.owner)) continue;
      heads.add(w.owner);
    }
    if (!canTake(slot, w.lane)) continue;
    if (best < 0 || key(w) < key(waiting[best] as Waiting)) best = i;
  }
  return best;
}

/** The order the policy would start the waiting work in, were slots of every lane free one after another. */
export function startOrder<T extends Waiting>(waiting: readonly T[]): T[] {
  const rest = [...waiting];
  const out: T[] = [];
  while (rest.length) out.push(...rest.splice(pickNext(rest, 'heavy'), 1));
  return out;
}

/**
 * 1 for the next to start in its lane: work of its own lane that the policy starts before it, plus one. (Heavy
 * slots also take quick work, but a quick job never waits for heavy work to start, and heavy work overtaken by
 * quick work waits only for that short while.)
 */
export function positionOf<T extends Waiting>(waiting: readonly T[], item: T): number | undefined {
  if (!waiting.includes(item)) return undefined;
  let ahead = 0;
  for (const w of startOrder(waiting)) {
    if (w === item) return ahead + 1;
    if (w.lane === item.lane) ahead++;
  }
  return undefined;
}

/** Expected ms until `item` starts: the expected time of the same-lane work ahead of it, spread over the slots. */
export function expectedWaitMs<T extends Waiting>(waiting: readonly T[], item: T, slots: number): number | undefined {
  if (!waiting.includes(item)) return undefined;
  let ms = 0;
  for (const w of startOrder(waiting)) {
    if (w === item) return Math.round(ms / Math.max(1, slots));
    if (w.lane === item.lane) ms += w.expectedMs;
  }
  return undefined;
}
