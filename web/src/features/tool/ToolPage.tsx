import { type Operation, operationByRoute } from '@ai-editor/core';
import { ServerOff } from 'lucide-react';
import { useParams } from 'react-router';
import { Card, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import NotFound from '@/pages/NotFound';
import { ComingSoon, ToolFrame } from './ToolFrame';
import { ToolWorkspace } from './ToolWorkspace';
import { TutorialCard } from './TutorialCard';
import { useEngineAvailability } from './useEngine';

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
  const { available, reason } = useEngineAvailability(op.id);
  if (available === false) return <Unavailable op={op} reason={reason} />;
  return (
    <>
      <ToolWorkspace op={op} />
      <TutorialCard op={op} />
    </>
  );
}

/** Said before any upload: this deployment has no engine for the operation (DESIGN §1: never a fake result). */
function Unavailable({ op, reason }: { op: Operation; reason?: string }) {
  return (
    <Card data-testid="tool-unavailable" className="border-dashed">
      <CardHeader className="items-center text-center">
        <ServerOff className="h-10 w-10 text-muted-foreground" aria-hidden />
        <CardTitle as="h2">Not available on this server</CardTitle>
        <CardDescription>
          {op.name} cannot run on this deployment. {reason}
        </CardDescription>
      </CardHeader>
    </Card>
  );
}
