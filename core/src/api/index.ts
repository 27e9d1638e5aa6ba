/** The HTTP API's shapes, defined once: the server validates and serialises with them, the web app reads them. */
export * from './config.js';
export * from './contact.js';
export * from './errors.js';
export * from './health.js';
export * from './images.js';
export * from './keys.js';
export * from './me.js';
