import { Check } from 'lucide-react';
import { Link } from 'react-router';
import { Page } from '@/components/layout/Page';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { TextLink } from '@/components/ui/text-link';
import { DAILY_USES, RETENTION_TEXT } from '@/lib/limits';

// The original perks list, corrected to what the product does: signed-in users have a daily allowance per
// feature (not "unlimited"), and there is no priority queue.
const PERKS = [
  'Access to all AI image features',
  'Full resolution output',
  'No watermarks',
  `${DAILY_USES} uses of every feature per day with a free Google sign-in`,
  `Your images are deleted automatically after ${RETENTION_TEXT}`,
  'Community support',
];

export default function Pricing() {
  return (
    <Page title="Pricing" lead="AI Editor is in beta, and every feature is free.">
      <Card className="border-2 border-primary">
        <CardHeader>
          <p className="text-sm font-semibold uppercase tracking-wide text-primary">Beta</p>
          <CardTitle as="h2" className="text-2xl">
            Free beta access
          </CardTitle>
          <CardDescription>
            <span className="text-4xl font-bold text-foreground">$0</span> for as long as the beta lasts
          </CardDescription>
        </CardHeader>
        <CardContent>
          <ul className="space-y-3">
            {PERKS.map((perk) => (
              <li key={perk} className="flex gap-3">
                <Check className="mt-0.5 h-5 w-5 shrink-0 text-primary" aria-hidden /> {perk}
              </li>
            ))}
          </ul>
        </CardContent>
        <CardFooter>
          <Button asChild size="lg" className="w-full sm:w-auto">
            <Link to="/features/face-enhancement">Start Using Now</Link>
          </Button>
        </CardFooter>
      </Card>
      <p className="mt-8 text-muted-foreground">
        Guests can try Face Enhancement without an account. After the beta some features may become premium; beta users
        will get special benefits when that happens. Questions? See the <TextLink to="/faq">FAQ</TextLink> or{' '}
        <TextLink to="/contact">contact us</TextLink>.
      </p>
    </Page>
  );
}
