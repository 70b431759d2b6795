import { ROLE_LABELS, isStaffRole } from '~/core/staff-roles';
import type { AuditItem, StaffItem } from '~/shared/admin-contract';
import type { AuditRow } from '~/models/audit.server';
import type { StaffRow, StaffSessionRow } from '~/models/staff-sessions.server';

// Rows to the admin contract's shapes: never a hash, a secret or a token.

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function staffItem(row: StaffRow, now: Date): StaffItem {
  const pending =
    row.setupTokenHash !== null && row.setupExpiresAt !== null && row.setupExpiresAt.getTime() > now.getTime();
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    role: row.role,
    role_label: isStaffRole(row.role) ? ROLE_LABELS[row.role] : row.role,
    disabled: row.disabled,
    password_set: row.passwordHash !== null,
    totp_enrolled: row.totpSecret !== null,
    setup_pending: pending,
    setup_expires_at: pending ? iso(row.setupExpiresAt) : null,
    created_at: row.createdAt.toISOString(),
  };
}

export function staffSessionItem(row: StaffSessionRow) {
  return {
    id: row.id,
    created_at: row.createdAt.toISOString(),
    authenticated_at: iso(row.authenticatedAt),
    last_seen_at: row.lastSeenAt.toISOString(),
    ip: row.ip,
    user_agent: row.userAgent,
    ended_at: iso(row.endedAt),
    end_reason: row.endReason,
  };
}

export function auditItem(row: AuditRow): AuditItem {
  return {
    id: row.id,
    at: row.at.toISOString(),
    actor_kind: row.actorKind,
    staff_id: row.staffId,
    actor_label: row.actorLabel,
    session_id: row.sessionId,
    ip: row.ip,
    action: row.action,
    entity_type: row.entityType,
    entity_id: row.entityId,
    before: row.before,
    after: row.after,
    reason: row.reason,
    request_id: row.requestId,
  };
}

/** The one-time link's address: the token rides in the fragment, so it never reaches a server log or a Referer. */
export function setupUrl(siteUrl: string, token: string): string {
  return `${siteUrl.replace(/\/+$/, '')}/admin/setup#token=${token}`;
}
