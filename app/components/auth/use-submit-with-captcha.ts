import type { FormEvent } from 'react';
import type { FetcherWithComponents } from 'react-router';
import { useCaptchaToken } from '~/app/lib/captcha';

/** What the login forms need of a fetcher, whatever its action answers. */
export type LoginFetcher = Pick<FetcherWithComponents<unknown>, 'Form' | 'submit'>;

/**
 * The captcha token is asked for at the moment of sending (tokens are short-lived and single
 * use): the submit waits for it, then posts the form with it as `captcha`. Before the scripts
 * load the form posts itself, with the token the server rendered (the captcha-off default).
 */
export function useSubmitWithCaptcha(
  fetcher: LoginFetcher,
  { action, captchaAction }: { action: string; captchaAction: string },
  onToken?: (token: string) => void,
) {
  const getToken = useCaptchaToken();
  return (e: FormEvent<HTMLFormElement>) => {
    const form = e.currentTarget;
    e.preventDefault();
    void getToken(captchaAction).then((token) => {
      onToken?.(token);
      const fields = new FormData(form);
      fields.set('captcha', token);
      void fetcher.submit(fields, { method: 'post', action });
    });
  };
}
