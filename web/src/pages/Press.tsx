import { Download } from 'lucide-react';
import { Page } from '@/components/layout/Page';
import { Card, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { TextLink } from '@/components/ui/text-link';

const ARTICLES = [
  {
    date: '2024',
    title: 'AI Editor launches its free public beta',
    text: 'AI Editor opens its suite of AI image tools to everyone, free during the beta: face enhancement, background removal, super resolution, text-to-image and more.',
  },
  {
    date: '2025',
    title: 'AI Editor becomes open source and self-hostable',
    text: 'The whole product, from the web app to the image engines, is now free software under the AGPL. One command runs it on a single machine.',
  },
];

/** Files in web/public/media-kit, shipped with the build. */
export const MEDIA_KIT = [
  { file: 'ai-editor-logo.svg', label: 'Logo (SVG, colour)' },
  { file: 'ai-editor-logo-white.svg', label: 'Logo (SVG, white on dark)' },
  { file: 'brand-colors.txt', label: 'Brand colours (text)' },
  { file: 'fact-sheet.txt', label: 'Fact sheet (text)' },
];

export default function Press() {
  return (
    <Page title="Press" lead="News, media resources and contacts for journalists." wide>
      <h2 className="mb-4 text-2xl font-semibold">In the news</h2>
      <ul className="grid gap-6 md:grid-cols-2">
        {ARTICLES.map((a) => (
          <li key={a.title}>
            <Card className="h-full">
              <CardHeader>
                <p className="text-sm text-muted-foreground">{a.date}</p>
                <CardTitle as="h3">{a.title}</CardTitle>
                <CardDescription>{a.text}</CardDescription>
              </CardHeader>
            </Card>
          </li>
        ))}
      </ul>
      <h2 className="mb-4 mt-12 text-2xl font-semibold">Media kit</h2>
      <ul className="grid gap-3 sm:grid-cols-2">
        {MEDIA_KIT.map((m) => (
          <li key={m.file}>
            <a
              href={`/media-kit/${m.file}`}
              download
              className="flex items-center gap-3 rounded-lg border p-4 hover:bg-accent"
              data-testid="media-kit-link"
            >
              <Download className="h-5 w-5 text-primary" aria-hidden />
              <span>{m.label}</span>
            </a>
          </li>
        ))}
      </ul>
      <h2 className="mb-4 mt-12 text-2xl font-semibold">Press contact</h2>
      <p className="text-muted-foreground">
        For interviews, images and information, write to our press team through the{' '}
        <TextLink to="/contact">contact form</TextLink> and mention "Press" in your message. We answer within two
        working days.
      </p>
    </Page>
  );
}
