import type { UserInfo, UserMain } from '~/shared/contract';
import type { CustomerRecord } from '~/models/customers.server';

// A customer record in SPEC §3's shapes (userMain, userInfo).

export function toUserMain(c: CustomerRecord): UserMain {
  return {
    ID: c.id,
    PHONE: c.phone,
    cart: c.cart,
    preorders: c.preorders,
    wishlist: c.wishlist.join(','),
    watched: c.watched.join(','),
  };
}

export function toUserInfo(c: CustomerRecord): UserInfo {
  return { FIRSTNAME: c.firstName, LASTNAME: c.lastName, SECONDNAME: c.secondName, PHONE: c.phone, EMAIL: c.email };
}
