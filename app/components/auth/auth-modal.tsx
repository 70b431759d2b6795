import { useCallback } from 'react';
import { useModal } from '~/app/ui/ModalHost';

export const AUTH_MODAL_TITLE = 'Вход';

/**
 * SPEC §2 Modals 'auth', §4 Favourites: a guest who presses a heart gets the login form in a
 * modal (its code loads when asked for); after login the shopper comes back to this page, with
 * the product of that heart (`favourite`) among the favourites (issue #26).
 */
export function useAuthModal(): (favourite?: number) => Promise<void> {
  const { open } = useModal();
  return useCallback(
    async (favourite?: number) => {
      // Read when pressed, not at render: every heart on a page would otherwise re-render on each
      // navigation, and a card kept as markup on the server must not read the router (one string
      // serves every page).
      const here = `${window.location.pathname}${window.location.search}`;
      const { LoginForm } = await import('~/app/components/auth/LoginForm');
      open({
        name: 'auth',
        title: AUTH_MODAL_TITLE,
        content: (
          <div className="auth-modal">
            <p className="auth-modal__lead">Войдите, чтобы сохранять товары в избранное.</p>
            <LoginForm state={{ step: 'phone', phone: '', error: null }} next={here} favourite={favourite} />
          </div>
        ),
      });
    },
    [open],
  );
}
