import { z } from 'zod';

// The admin API's contract (issue #29, docs/back-office.md): every answer and body of
// /backend/admin/, one zod schema each. The server validates with these, the OpenAPI document is
// built from them, and the admin app takes their types (types only: zod stays out of its bundle).
//
// Lists answer `{ data, total }` and take `sort`, `order` (asc|desc), `offset` and `limit` (at
// most 100) beside their own filters. A state change is a named POST with an `Idempotency-Key`
// header; plain field edits are PATCH. Errors are `{ error, field? }` in Russian.

export const AdminError = z.object({
  error: z.string(),
  /** The body field the error is about, when it is about one. */
  field: z.string().optional(),
  /** Seconds to wait (a login cap). */
  retry_after: z.number().int().optional(),
});
export type AdminError = z.infer<typeof AdminError>;

const isoDate = z.string();

// --- Login -------------------------------------------------------------------------------------

export const LoginBody = z.object({ email: z.string().trim().min(1).max(254), password: z.string().min(1).max(1024) });
export const LoginCodeBody = z.object({ code: z.string().trim().min(1).max(20) });
/** The password was right: the code is awaited (the half-way cookie is set). */
export const LoginStepResponse = z.object({ next: z.literal('totp') });
export type LoginStepResponse = z.infer<typeof LoginStepResponse>;

export const StaffMe = z.object({
  id: z.number().int(),
  email: z.string(),
  name: z.string(),
  role: z.string(),
  role_label: z.string(),
  permissions: z.array(z.string()),
  session: z.object({ authenticated_at: isoDate, expires_at: isoDate, idle_timeout_seconds: z.number().int() }),
});
export type StaffMe = z.infer<typeof StaffMe>;
export const MeResponse = z.object({ data: StaffMe });
export type MeResponse = z.infer<typeof MeResponse>;

export const OkResponse = z.object({ ok: z.literal(true) });

/** A staff member changes their own password: every session of theirs ends (log in again). */
export const PasswordChangeBody = z.object({ current_password: z.string().min(1).max(1024), password: z.string().max(1024) });

// --- One-time link: set the password and enrol the authenticator --------------------------------

export const SetupStartBody = z.object({ token: z.string().min(1).max(200) });
export const SetupFinishBody = z.object({
  token: z.string().min(1).max(200),
  /** 'setup': the new password; 'totp': the current one. */
  password: z.string().max(1024),
  code: z.string().trim().min(1).max(20),
});
export const SetupStartResponse = z.object({
  data: z.object({
    email: z.string(),
    name: z.string(),
    /** 'setup': a new account (password and authenticator); 'totp': a new authenticator after a reset. */
    purpose: z.enum(['setup', 'totp']),
    password_min: z.number().int(),
    password_max: z.number().int(),
    /** The key, base32, in groups of four for typing. */
    secret: z.string(),
    otpauth_uri: z.string(),
    /** The otpauth URI as a QR code, an SVG document. */
    qr_svg: z.string(),
  }),
});
export type SetupStartResponse = z.infer<typeof SetupStartResponse>;

// --- Staff ----------------------------------------------------------------------------------------

export const StaffItem = z.object({
  id: z.number().int(),
  email: z.string(),
  name: z.string(),
  role: z.string(),
  role_label: z.string(),
  disabled: z.boolean(),
  password_set: z.boolean(),
  totp_enrolled: z.boolean(),
  /** A one-time link is out and good until `setup_expires_at`. */
  setup_pending: z.boolean(),
  setup_expires_at: isoDate.nullable(),
  created_at: isoDate,
});
export type StaffItem = z.infer<typeof StaffItem>;
export const StaffListResponse = z.object({ data: z.array(StaffItem), total: z.number().int() });
export type StaffListResponse = z.infer<typeof StaffListResponse>;
export const StaffOneResponse = z.object({ data: StaffItem });
export type StaffOneResponse = z.infer<typeof StaffOneResponse>;
/** A change that made a one-time link (a new account, an authenticator reset): shown once, kept nowhere. */
export const StaffLinkResponse = z.object({ data: StaffItem, setup_url: z.string(), setup_expires_at: isoDate });
export type StaffLinkResponse = z.infer<typeof StaffLinkResponse>;
export const StaffSessionsEndedResponse = z.object({ data: StaffItem, sessions_ended: z.number().int() });
export type StaffSessionsEndedResponse = z.infer<typeof StaffSessionsEndedResponse>;

export const StaffSession = z.object({
  id: z.number().int(),
  created_at: isoDate,
  authenticated_at: isoDate.nullable(),
  last_seen_at: isoDate,
  ip: z.string(),
  user_agent: z.string(),
  ended_at: isoDate.nullable(),
  end_reason: z.string().nullable(),
});
export const StaffSessionsResponse = z.object({ data: z.array(StaffSession), total: z.number().int() });
export type StaffSessionsResponse = z.infer<typeof StaffSessionsResponse>;

const reason = z.string().trim().max(500).optional();
export const StaffCreateBody = z.object({ email: z.string().trim().min(1).max(254), name: z.string().trim().max(120).default(''), role: z.string() });
export const StaffPatchBody = z.object({ name: z.string().trim().max(120) });
export const StaffRoleBody = z.object({ role: z.string(), reason });
export const ReasonBody = z.object({ reason });

// --- Audit log ---------------------------------------------------------------------------------------

export const AuditItem = z.object({
  id: z.number().int(),
  at: isoDate,
  actor_kind: z.enum(['staff', 'script', 'system']),
  staff_id: z.number().int().nullable(),
  actor_label: z.string(),
  session_id: z.number().int().nullable(),
  ip: z.string(),
  action: z.string(),
  entity_type: z.string(),
  entity_id: z.string(),
  before: z.unknown(),
  after: z.unknown(),
  reason: z.string().nullable(),
  request_id: z.string(),
});
export type AuditItem = z.infer<typeof AuditItem>;
export const AuditListResponse = z.object({ data: z.array(AuditItem), total: z.number().int() });
export type AuditListResponse = z.infer<typeof AuditListResponse>;
export const AuditActionsResponse = z.object({ data: z.array(z.object({ id: z.string(), name: z.string() })) });
export type AuditActionsResponse = z.infer<typeof AuditActionsResponse>;

// --- Staff scripts (STAFF_TOKEN, `npm run staff`) ---------------------------------------------------

/** `POST /staff/accounts/` (the script's path): the account and, for create and reset-totp, its link. */
export const ScriptStaffResponse = z.object({
  data: z
    .object({
      id: z.number().int(),
      email: z.string(),
      role: z.string(),
      disabled: z.boolean(),
      setup_url: z.string().nullable(),
      setup_expires_at: isoDate.nullable(),
      sessions_ended: z.number().int(),
    })
    .nullable(),
  errors: z.record(z.string(), z.string()),
  warnings: z.array(z.string()),
});
export type ScriptStaffResponse = z.infer<typeof ScriptStaffResponse>;
