import { useState } from 'react';
import { useAccountFetcher } from './account-action';

/** The account's newsletter switch (subscribe.php): shows the new state at once, the server's answer after. */
export function NewsletterToggle({ subscribed }: { subscribed: boolean }) {
  const { fetcher, result } = useAccountFetcher('account-subscribe');
  // The shopper's choice shows at once, before the fetcher's state catches up (a controlled
  // checkbox would otherwise snap back for a frame); a refusal puts the saved state back.
  const [chosen, setChosen] = useState<boolean | null>(null);
  const pending = fetcher.formData?.get('active');
  const refused = result !== undefined && result !== null && !result.ok;
  const checked = pending ? pending === 'yes' : refused ? subscribed : (chosen ?? subscribed);
  return (
    <fetcher.Form method="post" className="newsletter-toggle" aria-label="Рассылка">
      <input type="hidden" name="intent" value="subscribe" />
      <label className="switch">
        <input
          type="checkbox"
          role="switch"
          className="switch__input"
          checked={checked}
          onChange={(e) => {
            setChosen(e.currentTarget.checked);
            void fetcher.submit(
              { intent: 'subscribe', active: e.currentTarget.checked ? 'yes' : 'no' },
              { method: 'post' },
            );
          }}
        />
        <span className="switch__track" aria-hidden="true" />
        <span className="switch__label">Получать рассылку о новых коллекциях и специальных предложениях</span>
      </label>
      {result && !result.ok ? (
        <p className="form-banner" role="alert">
          {result.error}
        </p>
      ) : null}
    </fetcher.Form>
  );
}
