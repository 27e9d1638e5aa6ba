import { config } from 'zod';

// zod compiles object schemas with `new Function` when it may, and probes for that at the first parse. This app's
// Content-Security-Policy allows no eval, so the probe would be refused and reported as a policy violation: the
// page's few small schemas (the contact form, parameters) are checked by zod's interpreter instead.
config({ jitless: true });
