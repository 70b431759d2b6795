import type { FastifyRequest } from 'fastify';
import type { Database } from '~/db/client.server';
import { writeAudit } from '~/models/audit.server';
import { lastValue } from '~/api/http.server';
import { scriptActor } from './accounts.routes.server';

// The staff scripts' changes (`npm run stock`, `order`, `return`, `jobs`) in the audit log, as the
// "script" actor: one row per successful call (the envelope's data not null), naming the entity
// and the action, with the answer as `after`. Written as the answer leaves, after the change's own
// transaction: until each of these operations is an admin route (api/admin/action.server.ts
// adminChange, whose audit row shares the change's transaction), a failed audit insert here fails
// the call (500) but cannot undo its change. `npm run staff` (accounts.routes.server.ts) is audited
// inside its transactions already.

const ENTITIES: readonly { path: string; type: string; idField: string }[] = [
  { path: '/staff/stock/', type: 'offer', idField: 'offer_id' },
  { path: '/staff/orders/', type: 'order', idField: 'order_id' },
  { path: '/staff/returns/', type: 'return', idField: 'request_id' },
  { path: '/staff/jobs/', type: 'jobs', idField: 'kind' },
];

export async function auditScriptCall(db: Database, req: FastifyRequest, payload: unknown): Promise<void> {
  if (req.method !== 'POST') return;
  const url = req.routeOptions.url ?? '';
  const entity = ENTITIES.find((e) => url.endsWith(e.path));
  if (!entity) return;
  const answer = payload as { data?: unknown } | null;
  if (!answer || typeof answer !== 'object' || answer.data === null || answer.data === undefined) return;
  const body = (req.body ?? {}) as Record<string, unknown>;
  const action = String(lastValue(body.action) ?? 'call');
  const id = lastValue(body[entity.idField]);
  const note = lastValue(body.note);
  await writeAudit(db, scriptActor(req), {
    action: `${entity.type}.${action}`,
    entityType: entity.type,
    entityId: typeof id === 'string' || typeof id === 'number' ? id : '',
    after: answer.data,
    reason: typeof note === 'string' && note !== '' ? note.slice(0, 500) : null,
  });
}
