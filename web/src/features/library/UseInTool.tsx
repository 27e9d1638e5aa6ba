import { ArrowRightLeft, Layers } from 'lucide-react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { usePhotoTools } from './usePhotoTools';

/** The tool page address that opens `op` with result `index` of job `id` as its photo (no new upload). */
export const chainRoute = (route: string, id: number, index = 0) =>
  `${route}?from=${id}${index ? `&index=${index}` : ''}`;

/** 'Use in another tool': pass a result on to any photo tool this server runs, or on to the multi-step editor. */
export function UseInTool({
  jobId,
  index = 0,
  exclude,
  size,
}: {
  jobId: number;
  index?: number;
  /** The tool that made the result (listed last would be odd; it is left out). */
  exclude?: string;
  size?: 'sm' | 'default';
}) {
  const tools = usePhotoTools().filter((op) => op.id !== exclude);
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="outline" size={size} data-testid="use-in-tool">
          <ArrowRightLeft aria-hidden /> Use in another tool
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="start" className="max-h-80 overflow-y-auto">
        <DropdownMenuLabel>Open this result in</DropdownMenuLabel>
        {tools.map((op) => (
          <DropdownMenuItem key={op.id} asChild>
            <Link to={chainRoute(op.route, jobId, index)} data-testid={`use-in-${op.id}`}>
              {op.name}
            </Link>
          </DropdownMenuItem>
        ))}
        <DropdownMenuSeparator />
        <DropdownMenuItem asChild>
          <Link to={`/editor?steps=${jobId}${index ? `.${index}` : ''}`} data-testid="use-in-editor">
            <Layers aria-hidden /> Continue in the editor
          </Link>
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
