import type { Operation } from '@ai-editor/core';
import { ImageIcon } from 'lucide-react';
import { useState } from 'react';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { takeCarriedPhoto } from '@/features/editor/carry';

/**
 * Seam for the tool-pages issue: the controls, upload area, progress, result and download of a working tool go
 * here. For now it shows the photo carried over from /editor, so that hand-over is visible end to end.
 */
export function ToolWorkspace({ op }: { op: Operation }) {
  const [photo] = useState(() => takeCarriedPhoto());
  const [url] = useState(() => (photo ? URL.createObjectURL(photo) : undefined));
  return (
    <Card data-testid="tool-workspace">
      <CardHeader>
        <CardTitle as="h2">{op.input === 'prompt' ? 'Describe your image' : 'Your photo'}</CardTitle>
        <CardDescription>The {op.name} workspace opens here.</CardDescription>
      </CardHeader>
      {url && photo && (
        <CardContent>
          <figure className="space-y-2">
            <img src={url} alt="The carried-over upload" className="max-h-80 rounded-md border object-contain" />
            <figcaption className="flex items-center gap-2 text-sm text-muted-foreground" data-testid="carried-photo">
              <ImageIcon className="h-4 w-4" aria-hidden /> {photo.name}
            </figcaption>
          </figure>
        </CardContent>
      )}
    </Card>
  );
}
