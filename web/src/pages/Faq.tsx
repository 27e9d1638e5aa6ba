import { LIMITS } from '@ai-editor/core';
import { Page } from '@/components/layout/Page';
import { Accordion, AccordionContent, AccordionItem, AccordionTrigger } from '@/components/ui/accordion';
import { TextLink } from '@/components/ui/text-link';
import { MAX_BATCH } from '@/features/tool/workspace/batch';
import { DAILY_USES, MAX_UPLOAD_TEXT, RETENTION_TEXT } from '@/lib/limits';

const guestTool = LIMITS.guestOperation === 'face-enhancement' ? 'Face Enhancement' : LIMITS.guestOperation;

// Where the original copy contradicted itself (watermarks on the free plan, 5MB vs 10MB) these answers say what
// the product does: no watermarks, and the upload limit the server enforces.
const QUESTIONS = [
  {
    q: 'What is AI Editor?',
    a: 'AI Editor is a web application with AI tools for editing and enhancing images: face enhancement, background removal, super resolution, denoising, colorization, object removal, style transfer and text-to-image generation. Upload a photo (or type a prompt), and you get a processed PNG back.',
  },
  {
    q: 'Is AI Editor free?',
    a: `Yes. AI Editor is in beta and every feature is free. Results carry no watermarks. Signed-in users can use each feature ${DAILY_USES} times per day; the count starts again every day at midnight UTC. After the beta some features may become premium, and beta users will get special benefits.`,
  },
  {
    q: 'Which image formats and sizes are supported?',
    a: `You can upload JPEG, PNG and WebP images of up to ${MAX_UPLOAD_TEXT} each. For the best results use photos of at least 1024x1024 pixels. Every result is a PNG.`,
  },
  {
    q: 'How long does processing take?',
    a: 'Typical processing takes 10-30 seconds. Large photos and upscaling to 4x can take longer. You can watch the progress on the tool page.',
  },
  {
    q: 'Do I need an account?',
    a: `No account is needed to try ${guestTool}. Sign in with Google to use every feature and to download your results.`,
  },
  {
    q: 'What happens to my images?',
    a: `Your uploads and results are visible only to you, and are deleted automatically ${RETENTION_TEXT} after you upload them. We never use your images to train models. Download any result you want to keep.`,
  },
  {
    q: 'Can I process several images at once?',
    a: `Yes, up to ${MAX_BATCH} at a time on the tools that take one photo without a painted area or a written prompt (face enhancement, background removal, denoising and others): choose or drop several photos at once. Each photo is processed on its own and counts as one use of the tool; download each result, or all of them as one ZIP file.`,
  },
  {
    q: 'How do I report a problem or ask for a feature?',
    a: 'Use the contact form. Include the tool you used and the message you saw; the troubleshooting guide in the documentation explains the most common messages.',
  },
];

export default function Faq() {
  return (
    <Page title="Frequently Asked Questions" lead="Answers to the questions we hear most often.">
      <Accordion type="single" collapsible className="w-full">
        {QUESTIONS.map(({ q, a }, i) => (
          <AccordionItem key={q} value={`item-${i}`}>
            <AccordionTrigger level={2}>{q}</AccordionTrigger>
            <AccordionContent className="text-muted-foreground">{a}</AccordionContent>
          </AccordionItem>
        ))}
      </Accordion>
      <p className="mt-8 text-muted-foreground">
        Still have questions? Read the <TextLink to="/docs">documentation</TextLink> or{' '}
        <TextLink to="/contact">contact us</TextLink>.
      </p>
    </Page>
  );
}
