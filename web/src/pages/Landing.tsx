import { OPERATIONS } from '@ai-editor/core';
import { ArrowRight, Quote, Sparkles, Upload, Wand2, WandSparkles } from 'lucide-react';
import { Link } from 'react-router';
import { useTitle } from '@/components/layout/Page';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { UnavailableBadge } from '@/features/tool/UnavailableBadge';
import { useToolOffer } from '@/features/tool/useEngine';
import { cn } from '@/lib/utils';

// Face Enhancement is the most popular tool and comes first (docs/product.md#pages); the rest keep catalogue order.
const FEATURES = [...OPERATIONS].sort((a, b) => Number(Boolean(b.popular)) - Number(Boolean(a.popular)));

/** The count comes from the catalogue less what this server cannot run, as on every page that counts tools. */
const steps = (count: number) => [
  { title: 'Upload', text: 'Drop your image or click to browse.', Icon: Upload },
  { title: 'Choose', text: `Pick one of our ${count} AI features.`, Icon: Wand2 },
  { title: 'Transform', text: 'Get your processed PNG in seconds and download it.', Icon: Sparkles },
];

const TESTIMONIALS = [
  {
    quote: 'Face Enhancement rescued a blurry photo from my sister’s wedding. It looks like it was taken yesterday.',
    name: 'Maria G.',
    role: 'Amateur photographer',
  },
  {
    quote: 'Background Removal gives me clean product shots for my shop without opening a photo editor.',
    name: 'Daniel K.',
    role: 'Online shop owner',
  },
  {
    quote: 'I upscale old game screenshots with Super Resolution. The detail it recovers is impressive.',
    name: 'Priya S.',
    role: 'Content creator',
  },
];

export default function Landing() {
  useTitle('AI Editor');
  const { offered, unavailable, count } = useToolOffer();
  // The tools this server runs come first (a stable sort: face enhancement stays first among them).
  const tools = [...FEATURES].sort((a, b) => Number(offered(b)) - Number(offered(a)));
  return (
    <div>
      <section className="border-b bg-gradient-to-b from-accent/60 to-background">
        <div className="mx-auto max-w-5xl px-4 py-20 text-center sm:py-28">
          <p className="mb-4 inline-flex items-center gap-2 rounded-full border bg-background px-3 py-1 text-sm text-muted-foreground">
            <Sparkles className="h-4 w-4 text-primary" aria-hidden /> Beta: every feature is free
          </p>
          <h1 className="text-4xl font-extrabold tracking-tight sm:text-6xl">Transform your images with AI</h1>
          <p className="mx-auto mt-6 max-w-2xl text-lg text-muted-foreground">
            Enhance faces, remove backgrounds, upscale, denoise, colorize and restyle your photos, or create new images
            from a sentence. Upload a photo and get a PNG back in seconds.
          </p>
          <div className="mt-8 flex flex-wrap justify-center gap-3">
            <Button asChild size="lg">
              <Link to="/features/face-enhancement">
                Try Face Enhancement <ArrowRight aria-hidden />
              </Link>
            </Button>
            <Button asChild size="lg" variant="outline">
              <Link to="/editor">Open the editor</Link>
            </Button>
          </div>
        </div>
      </section>

      <section className="mx-auto max-w-6xl px-4 py-16" aria-labelledby="features-heading">
        <h2 id="features-heading" className="text-center text-3xl font-bold">
          AI features
        </h2>
        <p className="mt-2 text-center text-muted-foreground">Everything you need to edit and enhance images.</p>
        {/* A 600 px scroll area on wide screens; on phones the page itself scrolls (no box inside a box). */}
        <div
          className="mt-8 rounded-lg border p-4 md:h-[600px] md:overflow-y-auto"
          data-testid="feature-grid"
          role="region"
          aria-label="All features"
          tabIndex={0}
        >
          <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
            {tools.map((op) => (
              <li key={op.id}>
                <Link
                  to={op.route}
                  className="group block h-full focus-visible:outline-none"
                  data-testid="feature-card"
                  data-offered={offered(op)}
                >
                  <Card
                    className={cn(
                      'h-full transition-shadow group-hover:shadow-md group-focus-visible:ring-2 group-focus-visible:ring-ring',
                      op.popular && 'border-2 border-primary bg-accent/50',
                      unavailable.has(op.id) && 'border-dashed bg-muted/40',
                    )}
                  >
                    <CardHeader>
                      {/* Wraps: a one-word name and a long badge may not fit on one line of a phone. */}
                      <div className="flex flex-wrap items-center justify-between gap-2">
                        <CardTitle>{op.name}</CardTitle>
                        {op.popular && (
                          <span className="rounded-full bg-primary px-2 py-0.5 text-xs font-medium text-primary-foreground">
                            Most popular
                          </span>
                        )}
                        {op.status === 'coming-soon' && (
                          <span className="rounded-full bg-muted px-2 py-0.5 text-xs font-medium text-muted-foreground">
                            Coming soon
                          </span>
                        )}
                        {unavailable.has(op.id) && <UnavailableBadge />}
                      </div>
                      <CardDescription>{op.description}</CardDescription>
                    </CardHeader>
                  </Card>
                </Link>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section className="bg-muted/40 py-16" aria-labelledby="how-heading">
        <div className="mx-auto max-w-5xl px-4">
          <h2 id="how-heading" className="text-center text-3xl font-bold">
            How It Works
          </h2>
          <ol className="mt-10 grid gap-6 sm:grid-cols-3">
            {steps(count).map(({ title, text, Icon }, i) => (
              <li key={title} className="text-center">
                <span className="mx-auto flex h-14 w-14 items-center justify-center rounded-full bg-primary text-primary-foreground">
                  <Icon className="h-6 w-6" aria-hidden />
                </span>
                <h3 className="mt-4 text-xl font-semibold">
                  {i + 1}. {title}
                </h3>
                <p className="mt-2 text-muted-foreground">{text}</p>
              </li>
            ))}
          </ol>
        </div>
      </section>

      <section className="mx-auto max-w-6xl px-4 py-16" aria-labelledby="users-heading">
        <h2 id="users-heading" className="text-center text-3xl font-bold">
          What Users Say
        </h2>
        <ul className="mt-10 grid gap-6 md:grid-cols-3">
          {TESTIMONIALS.map((t) => (
            <li key={t.name}>
              <Card className="h-full">
                <CardContent className="space-y-4 pt-6">
                  <Quote className="h-6 w-6 text-primary" aria-hidden />
                  <blockquote className="text-foreground">{t.quote}</blockquote>
                  <p className="text-sm">
                    <span className="font-semibold">{t.name}</span>
                    <span className="text-muted-foreground"> · {t.role}</span>
                  </p>
                </CardContent>
              </Card>
            </li>
          ))}
        </ul>
        <div className="mt-12 text-center">
          <Button asChild size="lg" variant="secondary">
            <Link to="/ai-apps">
              <WandSparkles aria-hidden /> Explore all AI apps
            </Link>
          </Button>
        </div>
      </section>
    </div>
  );
}
