import type { DataProvider, GetListParams, RaRecord } from 'react-admin';
import type { StaffSessionsResponse } from '~/shared/admin-contract';
import { adminApi, query } from './api';
import { signedIn } from './auth-provider';

// react-admin's data provider over the admin API (docs/back-office.md "Lists"):
//   getList / getManyReference  GET /<resource>?sort=&order=asc|desc&offset=&limit=&<filters>  → { data, total }
//   getOne                      GET /<resource>/<id>                                          → { data }
//   getMany                     GET /<resource>?ids=1,2,3
//   create                      POST /<resource>            (Idempotency-Key: meta.idempotencyKey or a new one)
//   update                      PATCH /<resource>/<id>      (only the fields that changed)
//   action (ours)               POST /<resource>/<id>/<name> with the body and the intent's Idempotency-Key
// Deleting is not an admin operation: staff are disabled, the log is never changed.

type ListAnswer = { data: RaRecord[]; total: number };

function listQuery(params: Partial<GetListParams>, extra: Record<string, unknown> = {}): string {
  const { page = 1, perPage = 25 } = params.pagination ?? {};
  const sort = params.sort;
  const filters: Record<string, string> = {};
  for (const [k, v] of Object.entries({ ...(params.filter ?? {}), ...extra })) {
    if (v === undefined || v === null || v === '') continue;
    filters[k] = v instanceof Date ? v.toISOString() : String(v);
  }
  return query({
    ...(sort?.field ? { sort: sort.field, order: sort.order === 'DESC' ? 'desc' : 'asc' } : {}),
    offset: (page - 1) * perPage,
    limit: perPage,
    ...filters,
  });
}

const unsupported = (what: string) => () => Promise.reject(new Error(`${what}: not an admin operation`));

export interface AdminDataProvider extends DataProvider {
  /** A named state change: POST /<resource>/<id>/<name>. */
  action<T = unknown>(
    resource: string,
    params: { id: RaRecord['id']; name: string; body?: unknown; idempotencyKey: string },
  ): Promise<T>;
  /** A staff member's sessions. */
  staffSessions(id: RaRecord['id']): Promise<StaffSessionsResponse>;
}

export const dataProvider: AdminDataProvider = {
  async getList(resource, params) {
    await signedIn();
    return adminApi<ListAnswer>(`/${resource}${listQuery(params)}`) as never;
  },
  async getOne(resource, { id }) {
    await signedIn();
    return adminApi<{ data: RaRecord }>(`/${resource}/${encodeURIComponent(String(id))}`) as never;
  },
  async getMany(resource, { ids }) {
    await signedIn();
    const { data } = await adminApi<ListAnswer>(
      `/${resource}${query({ ids: ids.join(','), limit: Math.min(Math.max(ids.length, 1), 100) })}`,
    );
    return { data } as never;
  },
  async getManyReference(resource, params) {
    await signedIn();
    // An offer's stock ledger lives under the offer (GET /offers/:id/moves).
    if (resource === 'offers-moves')
      return adminApi<ListAnswer>(
        `/offers/${encodeURIComponent(String(params.id))}/moves${listQuery(params)}`,
      ) as never;
    return adminApi<ListAnswer>(`/${resource}${listQuery(params, { [params.target]: params.id })}`) as never;
  },
  async create(resource, { data, meta }) {
    const key = (meta as { idempotencyKey?: string } | undefined)?.idempotencyKey;
    const answer = await adminApi<{ data: RaRecord } & Record<string, unknown>>(`/${resource}`, {
      method: 'POST',
      body: data,
      ...(key ? { key } : {}),
    });
    // Whatever else the answer says (a one-time link) rides on the record for the page that made it.
    const { data: record, ...rest } = answer;
    return { data: { ...record, ...rest } } as never;
  },
  async update(resource, { id, data, previousData }) {
    const changed: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(data as Record<string, unknown>))
      // By value: a form hands objects and lists back as copies.
      if (JSON.stringify((previousData as Record<string, unknown>)?.[k]) !== JSON.stringify(v)) changed[k] = v;
    if (Object.keys(changed).length === 0) return { data: previousData } as never;
    // A record with a `version` (the site's words) is saved against the version the form opened.
    const opened = (previousData as Record<string, unknown> | undefined)?.version;
    if (typeof opened === 'number') changed.version = opened;
    return adminApi<{ data: RaRecord }>(`/${resource}/${encodeURIComponent(String(id))}`, {
      method: 'PATCH',
      body: changed,
    }) as never;
  },
  updateMany: unsupported('updateMany'),
  delete: unsupported('delete'),
  deleteMany: unsupported('deleteMany'),
  async action<T>(
    resource: string,
    { id, name, body, idempotencyKey }: { id: RaRecord['id']; name: string; body?: unknown; idempotencyKey: string },
  ) {
    return adminApi<T>(`/${resource}/${encodeURIComponent(String(id))}/${name}`, {
      method: 'POST',
      body: body ?? {},
      key: idempotencyKey,
    });
  },
  async staffSessions(id) {
    return adminApi<StaffSessionsResponse>(`/staff/${encodeURIComponent(String(id))}/sessions`);
  },
};
