import { operationByRoute } from '@ai-editor/core';
import { useParams } from 'react-router';
import NotFound from '@/pages/NotFound';
import { ComingSoon, ToolFrame } from './ToolFrame';
import { ToolWorkspace } from './ToolWorkspace';

/** Route component of /features/:slug. The operation comes from the catalogue by its route. */
export default function ToolPage() {
  const { slug = '' } = useParams();
  const op = operationByRoute(`/features/${slug}`);
  if (!op) return <NotFound />;
  return (
    <ToolFrame op={op}>{op.status === 'coming-soon' ? <ComingSoon op={op} /> : <ToolWorkspace op={op} />}</ToolFrame>
  );
}
