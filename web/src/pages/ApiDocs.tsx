import { useQuery } from '@tanstack/react-query';
import { Page } from '@/components/layout/Page';
import { Skeleton } from '@/components/ui/skeleton';
import { queries } from '@/lib/queries';

type Json = Record<string, unknown>;
interface OpenApiOperation {
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: { name: string; in: string; required?: boolean; description?: string; schema?: Json }[];
  requestBody?: { content?: Record<string, { schema?: Json }> };
  responses?: Record<string, { description?: string; content?: Record<string, { schema?: Json }> }>;
}
interface OpenApiDoc {
  info?: { title?: string; version?: string; description?: string };
  paths?: Record<string, Record<string, OpenApiOperation>>;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];
const METHOD_COLOURS: Record<string, string> = {
  get: 'bg-emerald-700 text-white',
  post: 'bg-blue-700 text-white',
  put: 'bg-amber-700 text-white',
  patch: 'bg-amber-700 text-white',
  delete: 'bg-red-700 text-white',
};

/** A compact, readable type for a JSON schema: `{ id: integer, status: "pending" | … }`. */
export function schemaSummary(schema: Json | undefined, depth = 0): string {
  if (!schema) return 'any';
  if (typeof schema.$ref === 'string') return schema.$ref.split('/').pop() ?? 'object';
  if (Array.isArray(schema.enum)) return schema.enum.map((v) => JSON.stringify(v)).join(' | ');
  for (const key of ['anyOf', 'oneOf'] as const) {
    if (Array.isArray(schema[key])) return (schema[key] as Json[]).map((s) => schemaSummary(s, depth)).join(' | ');
  }
  if (schema.type === 'array') return `${schemaSummary(schema.items as Json | undefined, depth)}[]`;
  if (schema.type === 'object' || schema.properties) {
    const props = (schema.properties ?? {}) as Record<string, Json>;
    const names = Object.keys(props);
    if (names.length === 0) return 'object';
    if (depth >= 2) return '{ … }';
    const required = new Set((schema.required as string[] | undefined) ?? []);
    return `{ ${names.map((n) => `${n}${required.has(n) ? '' : '?'}: ${schemaSummary(props[n], depth + 1)}`).join(', ')} }`;
  }
  return Array.isArray(schema.type) ? schema.type.join(' | ') : String(schema.type ?? 'any');
}

function Endpoint({ method, path, op }: { method: string; path: string; op: OpenApiOperation }) {
  const body = op.requestBody?.content;
  return (
    <article className="rounded-lg border p-4" data-testid="endpoint">
      <h3 className="flex flex-wrap items-center gap-3 font-mono text-sm">
        <span className={`rounded px-2 py-0.5 text-xs font-bold uppercase ${METHOD_COLOURS[method] ?? 'bg-muted'}`}>
          {method}
        </span>
        <span className="break-all font-semibold">{path}</span>
      </h3>
      {op.summary && <p className="mt-2 font-medium">{op.summary}</p>}
      {op.description && <p className="mt-1 text-sm text-muted-foreground">{op.description}</p>}
      {op.parameters && op.parameters.length > 0 && (
        <div className="mt-3">
          <h4 className="text-sm font-semibold">Parameters</h4>
          <ul className="mt-1 space-y-1 text-sm">
            {op.parameters.map((p) => (
              <li key={`${p.in}-${p.name}`}>
                <code>{p.name}</code>{' '}
                <span className="text-muted-foreground">
                  ({p.in}
                  {p.required ? ', required' : ''})
                </span>
                : <code>{schemaSummary(p.schema)}</code> {p.description}
              </li>
            ))}
          </ul>
        </div>
      )}
      {body && (
        <div className="mt-3">
          <h4 className="text-sm font-semibold">Request body</h4>
          {Object.entries(body).map(([type, { schema }]) => (
            <p key={type} className="mt-1 text-sm">
              <span className="text-muted-foreground">{type}</span>{' '}
              <code className="break-all">{schemaSummary(schema)}</code>
            </p>
          ))}
        </div>
      )}
      {op.responses && (
        <div className="mt-3">
          <h4 className="text-sm font-semibold">Responses</h4>
          <ul className="mt-1 space-y-1 text-sm">
            {Object.entries(op.responses).map(([status, r]) => {
              const schema = Object.values(r.content ?? {})[0]?.schema;
              return (
                <li key={status}>
                  <code>{status}</code> {r.description}
                  {schema && (
                    <>
                      {' '}
                      <code className="break-all">{schemaSummary(schema)}</code>
                    </>
                  )}
                </li>
              );
            })}
          </ul>
        </div>
      )}
    </article>
  );
}

/**
 * Copy-paste examples of the whole round trip: submit with a key, wait, download; then webhooks. Each runs as shown
 * against this server (`base`) with a key in AIE_KEY and a photo.jpg beside it, each on a tool of its own (a day's
 * uses are 2 per tool); a webhook receiver on the server's machine needs WEBHOOK_ALLOW_PRIVATE=true, as it says.
 */
function examples(base: string): { title: string; code: string }[] {
  return [
    {
      title: 'curl',
      code: `export AIE_KEY=aie_...   # API keys page, under the account menu
# Submit: background removal of photo.jpg (any JPEG, PNG or WebP) on a white background, as JPEG
curl -s -H "Authorization: Bearer $AIE_KEY" -F operation=background-removal -F file=@photo.jpg \\
  -F background=#ffffff -F format=jpeg -F quality=85 \\
  ${base}/api/images | tee job.json      # 201 {"id":42,"status":"pending",...}; or {"code":...,"message":...}
ID=$(sed 's/^{"id":\\([0-9]*\\).*/\\1/' job.json)
# Wait: poll while the job is pending (it ends completed or failed)
while curl -s -H "Authorization: Bearer $AIE_KEY" ${base}/api/images/$ID | grep -q '"status":"pending"'; do sleep 1; done
# Download
curl -s -H "Authorization: Bearer $AIE_KEY" -o cutout.jpg ${base}/api/images/$ID/download/0`,
    },
    {
      title: 'TypeScript (the typed client, @ai-editor/client: openapi-fetch)',
      code: `// example.mts in AI Editor's folder (client/ is its workspace package), run as: node --import tsx example.mts
import fs from 'node:fs';
import { createApiClient, submitForm } from '@ai-editor/client';

const api = createApiClient({ baseUrl: '${base}', key: process.env.AIE_KEY });
const { data: job, error } = await api.POST('/api/images', {
  body: submitForm({
    operation: 'denoising',
    file: new Blob([fs.readFileSync('photo.jpg')], { type: 'image/jpeg' }),
    format: 'webp',
  }) as never,
});
if (error) throw new Error(error.message);
let done = job;
while (done.status === 'pending') {
  await new Promise((r) => setTimeout(r, 1000));
  done = (await api.GET('/api/images/{id}', { params: { path: { id: String(job.id) } } })).data!;
}
const file = await fetch('${base}' + done.downloadUrls[0], { headers: { authorization: \`Bearer \${process.env.AIE_KEY}\` } });
fs.writeFileSync('denoised.webp', Buffer.from(await file.arrayBuffer()));`,
    },
    {
      title: 'Python (requests)',
      code: `import os, time, requests

base, headers = '${base}', {'Authorization': f"Bearer {os.environ['AIE_KEY']}"}
r = requests.post(f'{base}/api/images', headers=headers,
                  files={'file': open('photo.jpg', 'rb')},
                  data={'operation': 'background-removal', 'output': 'mask'})
r.raise_for_status()
job = r.json()
print('uses left today:', r.headers.get('RateLimit-Remaining'))
while job['status'] == 'pending':
    time.sleep(1)
    job = requests.get(f"{base}/api/images/{job['id']}", headers=headers).json()
if job['status'] == 'failed':
    raise SystemExit(job['metadata']['error'])
open('mask.png', 'wb').write(requests.get(base + job['downloadUrls'][0], headers=headers).content)`,
    },
    {
      title: 'Webhooks: a receiver that checks the signature (Standard Webhooks; any of its libraries works too)',
      code: `// receiver.mjs, run as: AIE_WEBHOOK_SECRET=whsec_... node receiver.mjs   (the key's webhook secret, shown with it)
import crypto from 'node:crypto';
import http from 'node:http';

// headers webhook-id, webhook-timestamp, webhook-signature ("v1,<base64>"); body: the raw request body
function verify(secret, headers, body) {
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  const signed = \`\${headers['webhook-id']}.\${headers['webhook-timestamp']}.\${body}\`;
  const expected = crypto.createHmac('sha256', key).update(signed).digest('base64');
  const fresh = Math.abs(Date.now() / 1000 - Number(headers['webhook-timestamp'])) < 300;
  return fresh && headers['webhook-signature'].split(' ').some((s) => s === \`v1,\${expected}\`);
}

http
  .createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      const ok = verify(process.env.AIE_WEBHOOK_SECRET, req.headers, body);
      res.writeHead(ok ? 204 : 401).end();
      if (ok) console.log(JSON.parse(body).type, JSON.parse(body).data.status);   // job.completed completed
    });
  })
  .listen(8080);`,
    },
    {
      title: 'Webhooks: a job that calls the receiver',
      code: `# The server calls public addresses only: give it your receiver's public URL. A receiver on the server's own
# machine, as here, is refused (422) unless the server runs with WEBHOOK_ALLOW_PRIVATE=true (tests, closed networks)
curl -s -H "Authorization: Bearer $AIE_KEY" -F operation=pencil-sketch -F file=@photo.jpg \\
  -F webhook=http://localhost:8080/hooks/aie ${base}/api/images | tee job.json
ID=$(sed 's/^{"id":\\([0-9]*\\).*/\\1/' job.json)
# Once the job has ended, its deliveries: status, attempts, the receiver's last answer
curl -s -H "Authorization: Bearer $AIE_KEY" ${base}/api/images/$ID/webhooks`,
    },
  ];
}

function Examples() {
  const base = typeof window === 'undefined' ? 'http://localhost:5000' : window.location.origin;
  return (
    <section className="mb-10 space-y-4" aria-labelledby="examples">
      <h2 id="examples" className="text-2xl font-semibold">
        Submit, wait, download
      </h2>
      <p className="text-muted-foreground">
        Create a key on the API keys page (account menu). A key acts as you: the same tools and the same daily uses,
        which answers to key requests report in <code>RateLimit-Limit</code>, <code>RateLimit-Remaining</code> and{' '}
        <code>RateLimit-Reset</code> (seconds to midnight UTC). Every tool takes <code>format</code> (<code>png</code>,{' '}
        <code>jpeg</code>, <code>webp</code>) and <code>quality</code> (1–100). With <code>webhook</code>, the job is
        POSTed to your URL when it completes or fails, signed with the key's webhook secret (Standard Webhooks), and
        retried for a day; its deliveries are at <code>/api/images/:id/webhooks</code>. The URL must reach a public
        address: loopback and private ones are refused unless the server runs with{' '}
        <code>WEBHOOK_ALLOW_PRIVATE=true</code>. The examples expect your key in <code>AIE_KEY</code> and a photo named{' '}
        <code>photo.jpg</code> in the current folder.
      </p>
      {examples(base).map((e) => (
        <div key={e.title} className="space-y-2">
          <h3 className="font-semibold">{e.title}</h3>
          {/* It scrolls on a phone: focusable, so that the keyboard can scroll it too, and named for that stop. */}
          <pre
            className="overflow-x-auto rounded-lg border bg-muted p-4 text-xs"
            data-testid="api-example"
            tabIndex={0}
            role="region"
            aria-label={`${e.title}: code`}
          >
            <code>{e.code}</code>
          </pre>
        </div>
      ))}
    </section>
  );
}

/** The API reference, rendered from the server's OpenAPI document (generated from its route schemas). */
export default function ApiDocs() {
  const { data: doc, isPending, isError } = useQuery(queries.openApi());
  const data = doc as OpenApiDoc | undefined;
  const endpoints = Object.entries(data?.paths ?? {}).flatMap(([path, item]) =>
    METHODS.filter((m) => item[m]).map((m) => ({ method: m, path, op: item[m] as OpenApiOperation })),
  );
  const groups = new Map<string, typeof endpoints>();
  for (const e of endpoints) {
    const tag = e.op.tags?.[0] ?? 'other';
    groups.set(tag, [...(groups.get(tag) ?? []), e]);
  }
  return (
    <Page
      title="API Reference"
      lead="The HTTP API behind AI Editor: upload an image, pick an operation, get a PNG back."
      wide
    >
      <p className="mb-6 text-muted-foreground">
        Requests carry your session cookie, an API key or a Firebase ID token as{' '}
        <code>Authorization: Bearer &lt;key or token&gt;</code>. Errors answer <code>{'{ code, message }'}</code>. The
        machine-readable document is at{' '}
        <a href="/api/openapi.json" className="text-primary underline">
          /api/openapi.json
        </a>
        {data?.info?.version ? ` (version ${data.info.version})` : ''}.
      </p>
      <Examples />
      {isPending && <Skeleton className="h-40 w-full" />}
      {isError && (
        <p role="alert" className="rounded-md border border-destructive p-4">
          The API description could not be loaded. Please try again later.
        </p>
      )}
      {[...groups].map(([tag, list]) => (
        <section key={tag} className="mb-8" aria-labelledby={`tag-${tag}`}>
          <h2 id={`tag-${tag}`} className="mb-3 text-2xl font-semibold capitalize">
            {tag}
          </h2>
          <div className="space-y-4">
            {list.map((e) => (
              <Endpoint key={`${e.method} ${e.path}`} {...e} />
            ))}
          </div>
        </section>
      ))}
    </Page>
  );
}
