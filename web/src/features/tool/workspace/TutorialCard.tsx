import type { Operation } from '@ai-editor/core';
import { X } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';

const storageKey = (op: Operation) => `tutorial-seen:${op.id}`;

function seen(op: Operation): boolean {
  try {
    return localStorage.getItem(storageKey(op)) === '1';
  } catch {
    return false;
  }
}

function markSeen(op: Operation): void {
  try {
    localStorage.setItem(storageKey(op), '1');
  } catch {
    // Storage blocked: the card simply shows again next time.
  }
}

/**
 * The tutorial (docs/product.md#pages, #flows): a step-by-step card fixed at the bottom right, steps from the catalogue. Finishing or
 * closing it hides it for this feature for good (browser storage); other features keep theirs. Below 768 px it is
 * a card in the page, above the upload area, so that it covers nothing a visitor needs.
 */
export function TutorialCard({ op }: { op: Operation }) {
  const [hidden, setHidden] = useState(() => seen(op));
  const [step, setStep] = useState(0);
  const steps = op.tutorial;
  if (hidden || steps.length === 0) return null;
  const last = step === steps.length - 1;
  const current = steps[step] as (typeof steps)[number];
  const done = () => {
    markSeen(op);
    setHidden(true);
  };
  return (
    <Card
      role="dialog"
      aria-label={`${op.name} tutorial`}
      data-testid="tutorial-card"
      className="w-full shadow-lg md:fixed md:right-4 md:bottom-4 md:z-40 md:w-[min(22rem,calc(100vw-2rem))]"
    >
      <CardHeader className="flex-row items-start justify-between gap-2 pb-2">
        <div>
          <p className="text-xs text-muted-foreground">
            Step {step + 1} of {steps.length}
          </p>
          <CardTitle as="h2" className="text-base">
            {current.title}
          </CardTitle>
        </div>
        <Button variant="ghost" size="icon" className="-mt-2 -mr-2 h-8 w-8" onClick={done} aria-label="Close tutorial">
          <X aria-hidden />
        </Button>
      </CardHeader>
      <CardContent className="pb-4 text-sm">{current.text}</CardContent>
      <CardFooter className="justify-between">
        <Button variant="outline" size="sm" onClick={() => setStep((s) => s - 1)} disabled={step === 0}>
          Previous
        </Button>
        {last ? (
          <Button size="sm" onClick={done}>
            Finish
          </Button>
        ) : (
          <Button size="sm" onClick={() => setStep((s) => s + 1)}>
            Next
          </Button>
        )}
      </CardFooter>
    </Card>
  );
}
