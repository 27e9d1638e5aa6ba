import { useState } from 'react';
import { Link } from 'react-router';
import { Page, Prose } from '@/components/layout/Page';
import { Input } from '@/components/ui/input';

/** The L9(3^4) orthogonal array, first three columns: each pair of factors meets every level pair exactly once. */
const L9 = [
  [0, 0, 0],
  [0, 1, 1],
  [0, 2, 2],
  [1, 0, 1],
  [1, 1, 2],
  [1, 2, 0],
  [2, 0, 2],
  [2, 1, 0],
  [2, 2, 1],
] as const;

const FACTORS = [
  { name: 'Guidance scale', levels: ['5', '7.5', '10'] },
  { name: 'Inference steps', levels: ['30', '50', '80'] },
  { name: 'Scheduler', levels: ['Euler', 'DPM-Solver', 'DDIM'] },
];

/** Mean score of each level of each factor, over the runs that used it (main effects). */
export function mainEffects(scores: (number | undefined)[]): (number | undefined)[][] {
  return FACTORS.map((_, f) =>
    [0, 1, 2].map((level) => {
      const vals = L9.flatMap((row, i) => (row[f] === level && scores[i] !== undefined ? [scores[i] as number] : []));
      return vals.length === 3 ? vals.reduce((a, b) => a + b, 0) / 3 : undefined;
    }),
  );
}

export default function TaguchiDesign() {
  const [raw, setRaw] = useState<string[]>(Array(9).fill(''));
  const scores = raw.map((v) => (v.trim() === '' || Number.isNaN(Number(v)) ? undefined : Number(v)));
  const effects = mainEffects(scores);
  const complete = scores.every((s) => s !== undefined);
  return (
    <Page
      title="Tuning Settings with a Taguchi Design"
      lead="Find good settings for a generative tool in 9 runs instead of 27, with a method from industrial quality engineering."
    >
      <Prose>
        <p>
          Tools like <Link to="/features/text-to-image-diffusion">Text to Image (Diffusion)</Link> and{' '}
          <Link to="/features/style-transfer">Style Transfer</Link> have several settings that interact. Trying every
          combination of three settings at three values each takes 27 runs. A Taguchi design uses an{' '}
          <em>orthogonal array</em> to cover them in 9: every value of every setting appears three times, and every pair
          of values of two settings appears together exactly once. That balance lets you estimate each setting's effect
          separately.
        </p>
        <h2>1. Pick three settings and three values each</h2>
        <p>For the diffusion tool, a good start is the table below. Keep the prompt and everything else fixed.</p>
        <h2>2. Run the 9 combinations and score them</h2>
        <p>
          Generate one image per row and give it a score from 1 (poor) to 10 (excellent), judging the same thing every
          time, for example how well it matches the prompt. Enter the scores to see the analysis.
        </p>
      </Prose>
      <div className="my-6 overflow-x-auto">
        <table className="w-full border-collapse text-sm">
          <caption className="sr-only">L9 orthogonal array with your scores</caption>
          <thead>
            <tr className="border-b text-left">
              <th scope="col" className="p-2">
                Run
              </th>
              {FACTORS.map((f) => (
                <th key={f.name} scope="col" className="p-2">
                  {f.name}
                </th>
              ))}
              <th scope="col" className="p-2">
                Score (1-10)
              </th>
            </tr>
          </thead>
          <tbody>
            {L9.map((row, i) => (
              <tr key={row.join('')} className="border-b">
                <th scope="row" className="p-2 font-normal">
                  {i + 1}
                </th>
                {row.map((level, f) => (
                  <td key={FACTORS[f]?.name} className="p-2">
                    {FACTORS[f]?.levels[level]}
                  </td>
                ))}
                <td className="p-2">
                  <Input
                    type="number"
                    min={1}
                    max={10}
                    className="h-8 w-20"
                    aria-label={`Score of run ${i + 1}`}
                    value={raw[i]}
                    onChange={(e) => setRaw((r) => r.map((v, j) => (j === i ? e.target.value : v)))}
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <Prose>
        <h2>3. Read the main effects</h2>
        <p>
          For each setting, average the scores of the three runs that used each value. The value with the highest
          average is the best one for that setting; the spread between its averages shows how much the setting matters.
        </p>
      </Prose>
      <div className="my-6 overflow-x-auto" data-testid="main-effects">
        <table className="w-full border-collapse text-sm">
          <caption className="sr-only">Average score per value of each setting</caption>
          <thead>
            <tr className="border-b text-left">
              <th scope="col" className="p-2">
                Setting
              </th>
              <th scope="col" className="p-2">
                Average score per value
              </th>
              <th scope="col" className="p-2">
                Best value
              </th>
            </tr>
          </thead>
          <tbody>
            {FACTORS.map((f, i) => {
              const means = effects[i] ?? [];
              const defined = means.filter((m): m is number => m !== undefined);
              const best = defined.length === 3 ? means.indexOf(Math.max(...defined)) : -1;
              return (
                <tr key={f.name} className="border-b">
                  <th scope="row" className="p-2 font-medium">
                    {f.name}
                  </th>
                  <td className="p-2">{f.levels.map((l, j) => `${l}: ${means[j]?.toFixed(2) ?? '–'}`).join(' · ')}</td>
                  <td className="p-2 font-semibold">{best >= 0 ? f.levels[best] : '–'}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <Prose>
        <h2>4. Confirm</h2>
        <p>
          {complete
            ? 'Run the combination of best values once more (it is often not one of the 9 runs) and check that it scores at least as well as your best run.'
            : 'When all 9 scores are in, run the combination of best values once more and check that it scores at least as well as your best run.'}{' '}
          If it does not, two settings interact strongly: keep your best run's settings instead.
        </p>
        <p>
          The same array works for Style Transfer (style strength 20, 35, 50; steps 30, 50, 80; and three prompt
          wordings). Read more about each tool in the <Link to="/docs">documentation</Link>.
        </p>
      </Prose>
    </Page>
  );
}
