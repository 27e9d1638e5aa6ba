import type { SamAnswer, SamPrompt } from '../models/sam.js';

/**
 * The decoder's latest answers, by photo, prompt and size. A click's ladder is found anew for each request, so a
 * step smaller or larger, or a point added, would ask the decoder again what the click already asked it (a pass of
 * 35–90 ms each). A prompt with a mask fed back is not kept: it is asked once, as the last step of a refinement.
 */
export class RecentAnswers {
  private readonly answers = new Map<string, { photo: string; answer: Promise<SamAnswer> }>();

  /** `max` answers are kept, the least recently used dropped first (each about 1.5 MB at the analysis size). */
  constructor(private readonly max: number) {}

  answer(
    photo: string,
    prompt: SamPrompt,
    size: { width: number; height: number },
    decode: () => Promise<SamAnswer>,
  ): Promise<SamAnswer> {
    if (prompt.mask) return decode();
    const key = JSON.stringify([photo, size.width, size.height, prompt.points, prompt.box ?? null]);
    const answer = this.answers.get(key)?.answer ?? decode();
    // Most recently used last, for the eviction order.
    this.answers.delete(key);
    this.answers.set(key, { photo, answer });
    // A failed pass is not an answer: the next request asks again.
    answer.catch(() => this.answers.delete(key));
    for (const old of this.answers.keys()) {
      if (this.answers.size <= this.max) break;
      this.answers.delete(old);
    }
    return answer;
  }

  forget(photo: string): void {
    for (const [key, entry] of this.answers) if (entry.photo === photo) this.answers.delete(key);
  }

  clear(): void {
    this.answers.clear();
  }
}
