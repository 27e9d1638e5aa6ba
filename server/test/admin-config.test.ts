import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { isAdminEmail } from '../src/services/auth/index.js';

describe('ADMIN_EMAILS and METRICS_*', () => {
  it('reads the admin emails in lower case; none by default', () => {
    expect(loadConfig({}).adminEmails).toEqual([]);
    expect(loadConfig({ ADMIN_EMAILS: ' Ops@Example.com, b@example.org ,' }).adminEmails).toEqual([
      'ops@example.com',
      'b@example.org',
    ]);
  });

  it('stops the start on an entry that is not an email, naming the variable', () => {
    expect(() => loadConfig({ ADMIN_EMAILS: 'ops@example.com;root' })).toThrow(/ADMIN_EMAILS/);
    expect(() => loadConfig({ ADMIN_EMAILS: 'admin' })).toThrow(/ADMIN_EMAILS must be comma-separated emails/);
  });

  it('matches only verified emails, ignoring case', () => {
    const admins = ['ops@example.com'];
    expect(isAdminEmail(admins, { uid: 'u', email: 'OPS@example.com', emailVerified: true })).toBe(true);
    expect(isAdminEmail(admins, { uid: 'u', email: 'ops@example.com', emailVerified: false })).toBe(false);
    expect(isAdminEmail(admins, { uid: 'u', email: 'other@example.com', emailVerified: true })).toBe(false);
    expect(isAdminEmail(admins, undefined)).toBe(false);
  });

  it('serves metrics only when METRICS_PORT is set, on loopback unless METRICS_HOST says otherwise', () => {
    expect(loadConfig({}).metrics).toEqual({ port: undefined, host: '127.0.0.1' });
    expect(loadConfig({ METRICS_PORT: '9464', METRICS_HOST: '0.0.0.0' }).metrics).toEqual({
      port: 9464,
      host: '0.0.0.0',
    });
    expect(() => loadConfig({ METRICS_PORT: 'abc' })).toThrow(/METRICS_PORT/);
  });
});
