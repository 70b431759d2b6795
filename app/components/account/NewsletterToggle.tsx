import { useAccountFetcher } from './account-action';

/** The account's newsletter switch (subscribe.php): shows the new state at once, the server's answer after. */
export function NewsletterToggle({ subscribed }: { subscribed: boolean }) {
  const { fetcher, result } = useAccountFetcher('account-subscribe');
  const pending = fetcher.formData?.get('active');
  const checked = pending ? pending === 'yes' : subscribed;
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
            void fetcher.submit({ intent: 'subscribe', active: e.currentTarget.checked ? 'yes' : 'no' }, { method: 'post' });
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
