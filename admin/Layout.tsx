import type { ReactNode } from 'react';
import { AppBar, Layout, UserMenu, useGetIdentity } from 'react-admin';

// react-admin's layout with one change: the user menu's button shows the staff member's name but
// is labelled «Профиль», a name that does not contain the visible text (WCAG 2.5.3, axe's
// label-content-name-mismatch); its label here starts with the name.

function StaffUserMenu() {
  const { identity } = useGetIdentity();
  return <UserMenu label={identity?.fullName ? `${identity.fullName}: профиль и выход` : 'Профиль и выход'} />;
}

function StaffAppBar() {
  return <AppBar userMenu={<StaffUserMenu />} />;
}

export function AdminLayout({ children }: { children: ReactNode }) {
  return <Layout appBar={StaffAppBar}>{children}</Layout>;
}
