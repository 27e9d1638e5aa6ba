import { Page } from '@/components/layout/Page';
import { Card, CardContent } from '@/components/ui/card';
import { TextLink } from '@/components/ui/text-link';
import { useToolOffer } from '@/features/tool/useEngine';

// The tool count is the one the landing page gives: the catalogue less what this server cannot run.
const stats = (tools: number) => [
  { value: '100k+', label: 'Active users' },
  { value: '1M+', label: 'Images processed' },
  { value: String(tools), label: 'AI features' },
  { value: '99%', label: 'Satisfaction' },
];

export default function About() {
  const { count } = useToolOffer();
  return (
    <Page title="About AI Editor" lead="Advanced AI image editing and enhancement tools, for everyone." wide>
      <ul className="grid grid-cols-2 gap-4 md:grid-cols-4" aria-label="AI Editor in numbers">
        {stats(count).map((s) => (
          <li key={s.label}>
            <Card className="text-center">
              <CardContent className="pt-6">
                <p className="text-3xl font-extrabold text-primary">{s.value}</p>
                <p className="mt-1 text-sm text-muted-foreground">{s.label}</p>
              </CardContent>
            </Card>
          </li>
        ))}
      </ul>
      <div className="mt-12 grid gap-10 md:grid-cols-2">
        <section className="space-y-3">
          <h2 className="text-2xl font-semibold">Our story</h2>
          <p className="text-muted-foreground">
            AI Editor was founded in 2024 with a simple idea: the image tools that used to need expensive software and
            years of practice should be one click away for everyone. Restoring a family photo, cutting out a product for
            a shop, enlarging a picture for print or creating an illustration from a sentence should take seconds, not
            hours.
          </p>
        </section>
        <section className="space-y-3">
          <h2 className="text-2xl font-semibold">What we believe</h2>
          <ul className="list-disc space-y-2 pl-5 text-muted-foreground">
            <li>Your photos are yours: they are private, and deleted automatically after a day.</li>
            <li>Honest tools: when a feature is not ready, we say so instead of faking a result.</li>
            <li>Open source: the software is free under the AGPL, so anyone can run and improve it.</li>
            <li>Free during the beta, with special benefits for beta users afterwards.</li>
          </ul>
        </section>
      </div>
      <p className="mt-12 text-muted-foreground">
        Want to help? See our <TextLink to="/careers">open positions</TextLink> or{' '}
        <TextLink to="/contact">get in touch</TextLink>.
      </p>
    </Page>
  );
}
