import { getOperation } from '@ai-editor/core';
import { ArrowRight } from 'lucide-react';
import { Link } from 'react-router';
import { Page } from '@/components/layout/Page';
import { Card, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';

const POSTS = [
  {
    op: getOperation('face-enhancement'),
    title: 'How to restore blurry portraits in one click',
    text: 'Pick a portrait, run Face Enhancement, compare before and after, and learn when upscaling 2x helps.',
    minutes: 4,
  },
  {
    op: getOperation('background-removal'),
    title: 'Product photos with a transparent background',
    text: 'Shoot against a plain wall, remove the background, and place your product on any colour for your shop.',
    minutes: 5,
  },
  {
    op: getOperation('super-resolution'),
    title: 'Enlarging small images for print',
    text: 'When to choose 2x or 4x, why to denoise first, and how many pixels a good print really needs.',
    minutes: 6,
  },
];

export default function Blog() {
  return (
    <Page title="Blog" lead="Tutorials and guides to get the most out of AI Editor." wide>
      <ul className="grid gap-6 md:grid-cols-3">
        {POSTS.map((post) => (
          <li key={post.title}>
            <Card className="flex h-full flex-col">
              <CardHeader>
                <p className="text-xs font-semibold uppercase tracking-wide text-primary">
                  Tutorial · {post.minutes} min read
                </p>
                <CardTitle as="h2">{post.title}</CardTitle>
                <CardDescription>{post.text}</CardDescription>
              </CardHeader>
              <CardFooter className="mt-auto">
                <Link
                  to={post.op.route}
                  className="inline-flex items-center gap-1 font-medium text-primary hover:underline"
                >
                  Try {post.op.name} <ArrowRight className="h-4 w-4" aria-hidden />
                </Link>
              </CardFooter>
            </Card>
          </li>
        ))}
      </ul>
    </Page>
  );
}
