import { getOperation } from '@ai-editor/core';
import { useQuery } from '@tanstack/react-query';
import { Sparkles } from 'lucide-react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { chainRoute } from '@/features/library/UseInTool';
import { queries } from '@/lib/queries';

/**
 * 'Try Now' suggestions from the server's analysis of the result (`GET /api/images/{id}/recommendations?of=result`).
 * Following one opens that tool with this result as its photo (chained on the server: nothing is uploaded again).
 */
export function RecommendationCard({ imageId }: { imageId: number }) {
  const { data } = useQuery(queries.recommendations(imageId, 'result'));
  const items = (data ?? []).filter((r) => getOperation(r.operationId)).slice(0, 3);
  if (items.length === 0) return null;
  return (
    <Card data-testid="recommendations">
      <CardHeader>
        <CardTitle as="h2" className="flex items-center gap-2">
          <Sparkles className="h-5 w-5 text-primary" aria-hidden /> Recommended for this photo
        </CardTitle>
        <CardDescription>We looked at your result: these tools could improve it further.</CardDescription>
      </CardHeader>
      <CardContent>
        <ul className="space-y-4">
          {items.map((r) => {
            const op = getOperation(r.operationId);
            if (!op) return null;
            const pct = Math.round(r.confidence * 100);
            return (
              <li
                key={r.operationId}
                className="flex flex-col gap-3 sm:flex-row sm:items-center"
                data-testid={`recommendation-${op.id}`}
              >
                <div className="flex-1 space-y-1">
                  <p className="font-medium">{op.name}</p>
                  <p className="text-sm text-muted-foreground">{r.reason}</p>
                  <div className="flex items-center gap-2">
                    <div
                      className="h-2 w-40 overflow-hidden rounded-full bg-muted"
                      role="meter"
                      aria-label={`Confidence for ${op.name}`}
                      aria-valuemin={0}
                      aria-valuemax={100}
                      aria-valuenow={pct}
                    >
                      <div className="h-full bg-primary" style={{ width: `${pct}%` }} />
                    </div>
                    <span className="text-xs tabular-nums text-muted-foreground">{pct}% match</span>
                  </div>
                </div>
                <Button asChild size="sm">
                  <Link to={chainRoute(op.route, imageId)}>Try Now</Link>
                </Button>
              </li>
            );
          })}
        </ul>
      </CardContent>
    </Card>
  );
}
