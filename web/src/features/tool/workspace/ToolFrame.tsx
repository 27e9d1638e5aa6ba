import type { Operation } from '@ai-editor/core';
import { ArrowLeft, Check, Clock } from 'lucide-react';
import type * as React from 'react';
import { Link } from 'react-router';
import { useTitle } from '@/components/layout/Page';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { TextLink } from '@/components/ui/text-link';
import { useEngineAvailability } from '../useEngine';
import { AdBlock } from './AdBlock';

export const TIPS = [
  'Use PNG or JPEG images (WebP works too).',
  'For best results use images of at least 1024x1024 pixels.',
  // True for every tool on this kind of machine: see each tool's progress and estimate on its page.
  'Most tools finish in a few seconds; enlarging or restoring a large photo can take a few minutes.',
  // Every tool has output options (folded under "Output").
  'The result is a PNG unless you choose JPEG or WebP under Output.',
];

/**
 * The shared layout of every tool page (docs/product.md#pages): back link, title, description, body, why choose
 * (not for a tool this server cannot run: nothing to choose), tips.
 */
export function ToolFrame({ op, children }: { op: Operation; children: React.ReactNode }) {
  useTitle(op.name);
  const { available } = useEngineAvailability(op.id);
  return (
    <div className="mx-auto max-w-4xl space-y-8 px-4 py-10">
      <div className="space-y-3">
        <Link to="/" className="inline-flex items-center gap-1 text-sm text-muted-foreground hover:text-foreground">
          <ArrowLeft className="h-4 w-4" aria-hidden /> Back to Home
        </Link>
        <h1 className="text-3xl font-bold tracking-tight sm:text-4xl">{op.name}</h1>
        <p className="text-lg text-muted-foreground">{op.description}</p>
      </div>
      {children}
      <div className="grid gap-6 md:grid-cols-2">
        {available !== false && (
          <Card data-testid="why-choose">
            <CardHeader>
              <CardTitle as="h2">Why choose {op.name}?</CardTitle>
            </CardHeader>
            <CardContent>
              <ul className="space-y-2">
                {op.whyChoose.map((item) => (
                  <li key={item} className="flex gap-2">
                    <Check className="mt-0.5 h-4 w-4 shrink-0 text-primary" aria-hidden /> {item}
                  </li>
                ))}
              </ul>
            </CardContent>
          </Card>
        )}
        <Card>
          <CardHeader>
            <CardTitle as="h2">Tips</CardTitle>
          </CardHeader>
          <CardContent>
            <ul className="list-disc space-y-2 pl-5">
              {TIPS.map((tip) => (
                <li key={tip}>{tip}</li>
              ))}
            </ul>
          </CardContent>
        </Card>
      </div>
      <AdBlock />
    </div>
  );
}

/** What a coming-soon operation shows instead of the workspace. */
export function ComingSoon({ op }: { op: Operation }) {
  return (
    <Card data-testid="coming-soon" className="border-dashed">
      <CardHeader className="items-center text-center">
        <Clock className="h-10 w-10 text-primary" aria-hidden />
        <CardTitle as="h2">Coming soon</CardTitle>
        <CardDescription>
          {op.name} is not available yet. We are working on it: check back soon, or try one of our other{' '}
          <TextLink to="/ai-apps">AI apps</TextLink>.
        </CardDescription>
      </CardHeader>
    </Card>
  );
}
