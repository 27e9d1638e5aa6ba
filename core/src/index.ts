export * from './api/index.js';
export * from './contact.js';
export * from './errors.js';
export * from './limits.js';
export * from './operations.js';
export * from './output-size.js';
export * from './params.js';
export * from './rules.js';
