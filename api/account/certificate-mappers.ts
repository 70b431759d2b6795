import { formatCertificateCode, maskCertificateCode, moscowDate } from '~/core/gift-certificates';
import { kopecksToRoubles } from '~/core/money';
import type { OrderCertificate } from '~/shared/contract';
import type { BoughtCertificate } from '~/models/certificate-account.server';

/** A plastic card's number travels on the card: the account shows only its last four digits. */
export function toOrderCertificate(c: BoughtCertificate): OrderCertificate {
  return {
    KIND: c.kind,
    CODE: c.kind === 'electronic' ? formatCertificateCode(c.code) : maskCertificateCode(c.code),
    NOMINAL: kopecksToRoubles(c.nominalKopecks),
    BALANCE: kopecksToRoubles(c.balanceKopecks),
    EXPIRES: moscowDate(c.expiresAt),
    MAILED: c.mailedAt !== null,
  };
}
