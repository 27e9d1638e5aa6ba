import { OPERATIONS } from '@ai-editor/core';
import { ArrowRight, Clock, FileScan, GraduationCap, NotebookPen } from 'lucide-react';
import { Link } from 'react-router';
import { Page } from '@/components/layout/Page';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { TextLink } from '@/components/ui/text-link';
import { UnavailableBadge } from '@/features/tool/UnavailableBadge';
import { useToolOffer } from '@/features/tool/useEngine';

/** Every tool of the catalogue, the most used first (as on the landing page), then in catalogue order. */
const TOOLS = [...OPERATIONS].sort((a, b) => Number(Boolean(b.popular)) - Number(Boolean(a.popular)));

const COMING_SOON = [
  {
    name: 'Document Scanner & OCR',
    description: 'Straighten photos of documents and turn them into searchable text.',
    Icon: FileScan,
  },
  {
    name: 'AI Teacher',
    description: 'Step-by-step explanations and practice questions on any topic.',
    Icon: GraduationCap,
  },
  {
    name: 'Project Report Creator',
    description: 'Draft structured project reports from your notes and images.',
    Icon: NotebookPen,
  },
];

export default function AiApps() {
  const { offered } = useToolOffer();
  // Every tool this server runs is an available app; the ones it cannot run get their own section, never under
  // 'Available apps' (docs/comfort.md#no-dead-ends).
  const available = TOOLS.filter(offered);
  const off = TOOLS.filter((op) => !offered(op));
  return (
    <Page title="AI Apps" lead="Ready-to-use AI apps, free during the beta." wide>
      <section aria-labelledby="available-heading">
        <h2 id="available-heading" className="mb-4 text-2xl font-semibold">
          Available apps
        </h2>
        <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3" data-testid="apps-available">
          {available.map((op) => (
            <li key={op.id}>
              <Card className="flex h-full flex-col" data-testid="app-card">
                <CardHeader>
                  <CardTitle>{op.name}</CardTitle>
                  <CardDescription>{op.description}</CardDescription>
                </CardHeader>
                <CardFooter className="mt-auto">
                  <Button asChild>
                    <Link to={op.route}>
                      Open {op.name} <ArrowRight aria-hidden />
                    </Link>
                  </Button>
                </CardFooter>
              </Card>
            </li>
          ))}
        </ul>
        <p className="mt-6 text-muted-foreground">
          Want several tools on one photo? The <TextLink to="/editor">editor</TextLink> chains them, step by step, and
          suggests tools for the photo you drop on it.
        </p>
      </section>
      {off.length > 0 && (
        <section aria-labelledby="off-heading" className="mt-12" data-testid="apps-unavailable">
          <h2 id="off-heading" className="mb-4 text-2xl font-semibold">
            Not available on this server
          </h2>
          <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
            {off.map((op) => (
              <li key={op.id}>
                <Card className="h-full border-dashed">
                  <CardHeader>
                    <CardTitle>{op.name}</CardTitle>
                    <CardDescription>{op.description}</CardDescription>
                    <p>
                      <UnavailableBadge />
                    </p>
                  </CardHeader>
                </Card>
              </li>
            ))}
          </ul>
        </section>
      )}
      <section aria-labelledby="soon-heading" className="mt-12">
        <h2 id="soon-heading" className="mb-4 text-2xl font-semibold">
          Coming soon
        </h2>
        <ul className="grid gap-6 md:grid-cols-3">
          {COMING_SOON.map(({ name, description, Icon }) => (
            <li key={name}>
              <Card className="h-full border-dashed">
                <CardHeader>
                  <Icon className="h-8 w-8 text-primary" aria-hidden />
                  <CardTitle>{name}</CardTitle>
                  <CardDescription>{description}</CardDescription>
                </CardHeader>
                <CardContent>
                  <span className="inline-flex items-center gap-1 rounded-full bg-muted px-2 py-0.5 text-xs font-medium text-muted-foreground">
                    <Clock className="h-3 w-3" aria-hidden /> Coming soon
                  </span>
                </CardContent>
              </Card>
            </li>
          ))}
        </ul>
      </section>
    </Page>
  );
}
