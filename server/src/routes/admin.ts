import {
  ADMIN_ACTIONS,
  AppError,
  adminAccountListSchema,
  adminAccountsQuery,
  adminAuditSchema,
  adminBlockResultSchema,
  adminEnginesSchema,
  adminJobListSchema,
  adminJobSchema,
  adminJobsQuery,
  adminUidParams,
  adminUsageSchema,
  jobIdParams,
} from '@ai-editor/core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Actor, AdminService } from '../services/admin.js';
import type { Auth } from '../services/auth/index.js';

const tags = ['admin'];
const description = 'Administrators only (ADMIN_EMAILS): anyone else, guests included, gets 403 ADMIN_ONLY.';

/** The admin page's API: thin routes over AdminService; every one refuses non-administrators first. */
export function adminRoutes(fastify: FastifyInstance, deps: { admin: AdminService; auth: Pick<Auth, 'isAdmin'> }) {
  const { admin } = deps;
  const actor = (request: FastifyRequest): Actor => {
    const user = request.authUser;
    if (!user || !deps.auth.isAdmin(user)) throw new AppError('ADMIN_ONLY');
    return { uid: user.uid, email: user.email };
  };

  fastify.register(async (scoped) => {
    scoped.addHook('onRequest', async (request) => {
      actor(request);
    });
    const app = scoped.withTypeProvider<ZodTypeProvider>();

    app.get(
      '/api/admin/jobs',
      {
        schema: {
          operationId: 'adminListJobs',
          summary: "Every visitor's jobs, newest first: waiting, running, failed (with the logged reason), ...",
          description,
          tags,
          querystring: adminJobsQuery,
          response: { 200: adminJobListSchema },
        },
      },
      async (request) => ({ jobs: await admin.jobs(request.query) }),
    );

    app.post(
      ADMIN_ACTIONS['cancel-job'].route,
      {
        schema: {
          operationId: 'adminCancelJob',
          summary: "Cancel anyone's waiting or running job: it fails 'Cancelled' and the use goes back",
          description,
          tags,
          params: jobIdParams,
          response: { 200: adminJobSchema },
        },
      },
      async (request) => admin.cancel(actor(request), Number(request.params.id)),
    );

    app.get(
      '/api/admin/engines',
      {
        schema: {
          operationId: 'adminEngines',
          summary: "Every process's engine hosts; per operation: loaded, jobs in the last hour, p50/p95 over 24 h",
          description,
          tags,
          response: { 200: adminEnginesSchema },
        },
      },
      async () => admin.engines(),
    );

    app.get(
      '/api/admin/usage',
      {
        schema: {
          operationId: 'adminUsage',
          summary: 'Jobs per day per operation over 30 days, distinct users, top users',
          description,
          tags,
          response: { 200: adminUsageSchema },
        },
      },
      async () => admin.usage(),
    );

    app.get(
      '/api/admin/accounts',
      {
        schema: {
          operationId: 'adminFindAccounts',
          summary: 'Accounts whose email contains `email` (every account, latest first, without it)',
          description,
          tags,
          querystring: adminAccountsQuery,
          response: { 200: adminAccountListSchema },
        },
      },
      async (request) => ({ accounts: await admin.accounts(request.query.email) }),
    );

    app.post(
      ADMIN_ACTIONS['block-account'].route,
      {
        schema: {
          operationId: 'adminBlockAccount',
          summary: "Block an account: its requests get 403 'Account suspended', its pending jobs are cancelled",
          description,
          tags,
          params: adminUidParams,
          response: { 200: adminBlockResultSchema },
        },
      },
      async (request) => admin.block(actor(request), request.params.uid),
    );

    app.post(
      ADMIN_ACTIONS['unblock-account'].route,
      {
        schema: {
          operationId: 'adminUnblockAccount',
          summary: 'Unblock an account',
          description,
          tags,
          params: adminUidParams,
          response: { 200: adminBlockResultSchema },
        },
      },
      async (request) => admin.unblock(actor(request), request.params.uid),
    );

    app.get(
      '/api/admin/audit',
      {
        schema: {
          operationId: 'adminAuditLog',
          summary: 'The latest administrator actions: who, what, on which target, when',
          description,
          tags,
          response: { 200: adminAuditSchema },
        },
      },
      async () => ({ entries: await admin.auditLog() }),
    );
  });
}
