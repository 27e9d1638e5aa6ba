import { OPERATIONS, type Operation, operationByRoute } from '@ai-editor/core';
import { ServerOff } from 'lucide-react';
import { Link, useParams } from 'react-router';
import NotFound from '@/components/layout/NotFound';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { useEngineAvailability, useToolOffer } from '../useEngine';
import { ComingSoon, ToolFrame } from './ToolFrame';
import { ToolWorkspace } from './ToolWorkspace';
import { TutorialCard } from './TutorialCard';

/** Route component of /features/:slug. The operation comes from the catalogue by its route. */
export default function ToolPage() {
  const { slug = '' } = useParams();
  const op = operationByRoute(`/features/${slug}`);
  if (!op) return <NotFound />;
  // Keyed by operation: moving from one tool to another starts the new one fresh.
  return (
    <ToolFrame op={op}>
      {op.status === 'coming-soon' ? <ComingSoon op={op} /> : <WorkingTool key={op.id} op={op} />}
    </ToolFrame>
  );
}

function WorkingTool({ op }: { op: Operation }) {
  const { available } = useEngineAvailability(op.id);
  if (available === false) return <Unavailable op={op} />;
  return (
    <>
      {/* First: on a phone the card sits in the page above the upload area instead of over it. */}
      <TutorialCard op={op} />
      <ToolWorkspace op={op} />
    </>
  );
}

/**
 * Said before any upload: this deployment has no engine for the operation (never a fake result). In the visitor's
 * words, with tools of the same kind that do work here; what an operator would change is on /status and in the docs.
 */
function Unavailable({ op }: { op: Operation }) {
  const { offered } = useToolOffer();
  const sameKind = (o: Operation) => (o.input === 'prompt') === (op.input === 'prompt');
  const others = OPERATIONS.filter((o) => o.id !== op.id && offered(o) && sameKind(o)).slice(0, 4);
  return (
    <Card data-testid="tool-unavailable" className="border-dashed">
      <CardHeader className="items-center text-center">
        <ServerOff className="h-10 w-10 text-muted-foreground" aria-hidden />
        <CardTitle as="h2">Not available on this server</CardTitle>
        <CardDescription>
          {op.name} is not enabled on this server, so it cannot process images here. The tools below work here.
        </CardDescription>
      </CardHeader>
      {others.length > 0 && (
        <CardContent>
          <ul className="flex flex-wrap justify-center gap-2" aria-label="Tools that work here">
            {others.map((o) => (
              <li key={o.id}>
                <Link to={o.route} className="inline-block rounded-full border px-3 py-1 text-sm hover:bg-accent">
                  {o.name}
                </Link>
              </li>
            ))}
          </ul>
        </CardContent>
      )}
    </Card>
  );
}
