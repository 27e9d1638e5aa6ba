import { type DocSlug, ERRORS, errorMessage, getOperation, LIMITS } from '@ai-editor/core';
import type * as React from 'react';
import { Link } from 'react-router';
import { MAX_UPLOAD_TEXT, RETENTION_TEXT } from '@/lib/limits';

export interface DocArticleDef {
  slug: DocSlug;
  title: string;
  summary: string;
  body: () => React.ReactNode;
}

const styleParams = getOperation('style-transfer').params;
const range = (name: string) => {
  const p = styleParams.find((x) => x.name === name);
  return p?.kind === 'number' ? `${p.min} to ${p.max} (default ${p.default})` : '';
};

/** One entry per /docs/:slug page. The texts describe the tools as this code base implements them. */
export const ARTICLES: DocArticleDef[] = [
  {
    slug: 'object-removal',
    title: 'Object Removal',
    summary: 'Paint over people, objects or text and let the background fill in.',
    body: () => (
      <>
        <p>
          Object Removal erases what you paint over and fills the area from the texture around it. It works best on
          small and medium objects in front of even backgrounds: a passer-by on a beach, a sign on a wall, a date stamp,
          a power line across the sky.
        </p>
        <h2>How to use it</h2>
        <ol>
          <li>
            Open <Link to="/features/object-removal">Object Removal</Link> and upload a JPEG, PNG or WebP photo of up to{' '}
            {MAX_UPLOAD_TEXT}.
          </li>
          <li>Paint over everything you want removed with the brush. Cover the object's shadow and reflections too.</li>
          <li>Use the eraser and undo to correct the mask, and zoom in for fine edges.</li>
          <li>Submit. Everything outside your mask stays exactly as it was.</li>
        </ol>
        <h2>Tips for clean results</h2>
        <ul>
          <li>Paint a little beyond the object's outline: leftover edge pixels are copied into the fill.</li>
          <li>Remove large objects in several smaller passes, downloading and uploading the result in between.</li>
          <li>
            Busy, repeating backgrounds (grass, gravel, water) hide the fill best; faces and text behind the object
            cannot be recovered.
          </li>
        </ul>
      </>
    ),
  },
  {
    slug: 'background-removal',
    title: 'Background Removal',
    summary: 'Cut out the subject and get a transparent PNG.',
    body: () => (
      <>
        <p>
          Background Removal finds the main subject of a photo (a person, a product, an animal) and makes everything
          else transparent. The model runs on our own server, so your photo is not sent to anyone else.
        </p>
        <h2>How to use it</h2>
        <ol>
          <li>
            Open <Link to="/features/background-removal">Background Removal</Link> and upload your photo.
          </li>
          <li>Wait a few seconds; there is nothing to set.</li>
          <li>Download the PNG. It has the full size of your photo, with a transparent background.</li>
        </ol>
        <h2>Tips</h2>
        <ul>
          <li>Photos where the subject stands out from the background in colour or focus give the cleanest edges.</li>
          <li>
            Hair and fur are kept as soft, partly transparent edges; place the result on a background of similar
            brightness for the most natural look.
          </li>
          <li>Group photos are treated as one subject: everyone in the foreground is kept.</li>
        </ul>
      </>
    ),
  },
  {
    slug: 'super-resolution',
    title: 'Super Resolution',
    summary: 'Enlarge photos 2x or 4x and recover fine detail.',
    body: () => (
      <>
        <p>
          Super Resolution enlarges a photo 2x or 4x with Real-ESRGAN, a neural network trained to restore the detail
          that ordinary resizing blurs. Large photos are processed in overlapping tiles, so there are no visible seams.
        </p>
        <h2>How to use it</h2>
        <ol>
          <li>
            Open <Link to="/features/super-resolution">Super Resolution</Link> and upload your photo.
          </li>
          <li>Choose the scale: 2x or 4x. A 4x result has 16 times as many pixels and takes longer.</li>
          <li>Download the PNG.</li>
        </ol>
        <h2>Tips</h2>
        <ul>
          <li>Super Resolution shines on small images: thumbnails, old web photos, screenshots.</li>
          <li>Heavily compressed JPEGs: upscale 2x first; the network also removes compression blocks.</li>
          <li>For a noisy photo, run Denoising first, then Super Resolution.</li>
        </ul>
      </>
    ),
  },
  {
    slug: 'style-transfer',
    title: 'Style Transfer',
    summary: "Restyle a portrait in any artistic style; keep the word 'img' in your prompt.",
    body: () => (
      <>
        <p>
          Style Transfer repaints a portrait in the style you describe, while keeping the person recognisable. Your
          prompt describes the picture; the special word <code>img</code> marks where the person from your photo
          belongs.
        </p>
        <h2>Writing the prompt</h2>
        <ul>
          <li>
            The prompt must contain the word <code>img</code> exactly once, for example:{' '}
            <em>A portrait of a person img, in the style of a vibrant oil painting, masterpiece</em>.
          </li>
          <li>Name a medium and a mood: watercolour, comic book, 1950s poster, charcoal drawing, cyberpunk neon.</li>
          <li>The negative prompt lists what to avoid; the default already excludes common quality defects.</li>
        </ul>
        <h2>Settings</h2>
        <ul>
          <li>
            <strong>Style strength</strong>: {range('style_strength_ratio')}. Higher values follow the style more and
            the photo less.
          </li>
          <li>
            <strong>Steps</strong>: {range('num_steps')}. More steps add detail and take longer.
          </li>
          <li>
            <strong>Outputs</strong>: {range('num_outputs')}. Several variations at once.
          </li>
        </ul>
        <p>
          For a systematic way to find the best combination of these settings for your photos, see{' '}
          <Link to="/taguchi-design">tuning settings with a Taguchi design</Link>.
        </p>
        <p>
          Style Transfer needs a large generative model. Whether it is available on this server is shown on the{' '}
          <Link to="/status">status page</Link>.
        </p>
      </>
    ),
  },
  {
    slug: 'best-practices',
    title: 'Best Practices',
    summary: 'Get the best results from every tool.',
    body: () => (
      <>
        <h2>Start from a good photo</h2>
        <ul>
          <li>Use the largest, least-compressed version you have. For best results use at least 1024x1024 pixels.</li>
          <li>
            JPEG, PNG and WebP are accepted, up to {MAX_UPLOAD_TEXT} per image. Export very large photos at a lower JPEG
            quality if they exceed the limit.
          </li>
          <li>Photos are turned upright from their camera orientation automatically.</li>
        </ul>
        <h2>Chain tools in the right order</h2>
        <ol>
          <li>Remove objects first, while the photo is at its original size.</li>
          <li>Then denoise or colorize.</li>
          <li>Upscale last: every later step would otherwise have 4 to 16 times more pixels to process.</li>
        </ol>
        <h2>Keep your results</h2>
        <p>
          Every result is a PNG without the metadata of your upload. Images are deleted {RETENTION_TEXT} after upload,
          so download what you want to keep. Downloading needs a free Google sign-in.
        </p>
        <h2>Prompts</h2>
        <ul>
          <li>
            Describe the subject, setting, light and style: "a red fox in fresh snow at sunrise, soft light,
            photograph".
          </li>
          <li>Change one thing at a time between attempts, so you learn what each word does.</li>
        </ul>
      </>
    ),
  },
  {
    slug: 'troubleshooting',
    title: 'Troubleshooting',
    summary: 'What each message means and how to fix it.',
    body: () => (
      <>
        <p>The messages below are the ones you may see in the notifications at the corner of the screen.</p>
        <dl className="space-y-4">
          {[
            [
              ERRORS.FILE_TOO_LARGE.message,
              `The upload limit is ${MAX_UPLOAD_TEXT}. Resize the photo or save it as a JPEG.`,
            ],
            [ERRORS.INVALID_FILE_TYPE.message, 'Convert HEIC, GIF, TIFF or RAW files to JPEG or PNG first.'],
            [
              ERRORS.IMAGE_UNREADABLE.message,
              'The file is damaged or not really an image. Open it in an image viewer and save it again.',
            ],
            [
              `${ERRORS.FEATURE_RESTRICTED.title}: ${ERRORS.FEATURE_RESTRICTED.message}`,
              'Guests can use Face Enhancement only. Sign in with Google (free) for every tool.',
            ],
            [
              `${ERRORS.DOWNLOAD_RESTRICTED.title}: ${ERRORS.DOWNLOAD_RESTRICTED.message}`,
              'Downloading needs a free Google sign-in.',
            ],
            [
              `${ERRORS.DAILY_LIMIT_REACHED.title}: ${ERRORS.DAILY_LIMIT_REACHED.message}`,
              'Each feature can be used a limited number of times per day. The count starts again at midnight UTC. A failed job does not count.',
            ],
            [
              ERRORS.PROMPT_IMG_KEYWORD.message,
              'Style Transfer: write the word img once, where the person belongs in the sentence.',
            ],
            [
              errorMessage('RESULT_EXPIRED', { hours: LIMITS.retentionHours }),
              'Results are kept for a limited time. Upload the photo again.',
            ],
            [ERRORS.RATE_LIMITED.message, 'You sent many requests in a short time. Wait a minute.'],
            [
              'Processing failed',
              'The message under it says why. Try a smaller photo, and check the status page for an outage.',
            ],
          ].map(([problem, fix]) => (
            <div key={problem} className="rounded-md border p-4">
              <dt className="font-semibold">{problem}</dt>
              <dd className="mt-1 text-muted-foreground">{fix}</dd>
            </div>
          ))}
        </dl>
        <h2>Sign-in problems</h2>
        <ul>
          <li>Sign-in opens a Google pop-up: allow pop-ups for this site if nothing appears.</li>
          <li>Third-party cookie blocking can stop the pop-up from finishing; allow it for this site.</li>
        </ul>
        <p>
          Still stuck? Check the <Link to="/status">status page</Link> or <Link to="/contact">contact us</Link>.
        </p>
      </>
    ),
  },
];
