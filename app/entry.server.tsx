import type { ActionFunctionArgs, AppLoadContext, EntryContext, LoaderFunctionArgs } from 'react-router';
import { isRouteErrorResponse, ServerRouter } from 'react-router';
import { renderToPipeableStream } from 'react-dom/server.bun';
import { DocumentBytes } from '~/app/lib/module-preloads.server';

// React Router's default entry streams each document through a PassThrough and a web stream,
// one promise hop per chunk of a few KB. No loader here streams (none returns a promise for
// <Await>), so the document is complete when React's "all ready" comes: it is collected and
// sent as one body instead, which costs less CPU per page and gives the guest page cache one
// buffer and the preload rewrite one string (issue #13). Lazy parts inside Suspense are then
// written in place, never as a fallback with a late swap.
//
// The renderer is react-dom's `server.bun` build: the same Fizz renderer as `react-dom/server`
// (the same API, byte-identical HTML: app/entry.server.test.tsx), whose destination receives
// strings. The Node build encodes each of a page's ~10 000 small chunks into 4 KB byte views
// (3.5 ms of a category page's 19 ms on the bench machine); here they are encoded once, into one
// buffer (DocumentBytes: short strings gathered, long ones encoded as they come). It uses no Bun
// API on this path (only React Server Components' form actions would).

/** How long a render may wait for anything it suspended on before React gives up on it. */
export const streamTimeout = 5_000;

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext?: AppLoadContext,
) {
  if (request.method.toUpperCase() === 'HEAD')
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });

  return new Promise<Response>((resolve, reject) => {
    let status = responseStatusCode;
    let shellRendered = false;
    const timeout = setTimeout(() => abort(), streamTimeout + 1000);
    const html = new DocumentBytes();
    // What React's pipe() needs of a Node stream, and no more: the whole document is written in
    // one go once all is ready, so a real Writable's buffering and callbacks are only overhead.
    const sink: {
      write(chunk: Uint8Array | string): boolean;
      end(): void;
      destroy(error?: unknown): void;
      on(): unknown;
    } = {
      write(chunk: Uint8Array | string): boolean {
        if (typeof chunk === 'string') html.write(chunk);
        else html.writeBytes(chunk);
        return true;
      },
      end(): void {
        clearTimeout(timeout);
        responseHeaders.set('Content-Type', 'text/html; charset=utf-8');
        // The module preloads wait for the first paint (app/lib/module-preloads.server.ts).
        const bytes = html.document();
        // The server's adapter sends the bytes as they are; the Response only carries status and headers.
        if (loadContext?.sendDocument) {
          loadContext.sendDocument(bytes);
          resolve(new Response(null, { status, headers: responseHeaders }));
        } else {
          resolve(new Response(bytes, { status, headers: responseHeaders }));
        }
      },
      destroy(error?: unknown): void {
        clearTimeout(timeout);
        reject(error instanceof Error ? error : new Error('the render was aborted'));
      },
      on() {
        return sink;
      },
    };
    const { pipe, abort } = renderToPipeableStream(<ServerRouter context={routerContext} url={request.url} />, {
      // The document is written whole (onAllReady), so every Suspense boundary is complete: write
      // each in its place. React's default (12 800 bytes) moves a larger boundary, such as the page
      // inside <main>, to the document's end behind a script, which readers without JavaScript
      // and the page's own tests would see as an empty <main>.
      progressiveChunkSize: Number.POSITIVE_INFINITY,
      onShellReady() {
        shellRendered = true;
      },
      onAllReady() {
        pipe(sink as unknown as NodeJS.WritableStream);
      },
      onShellError(error: unknown) {
        clearTimeout(timeout);
        reject(error);
      },
      onError(error: unknown) {
        status = 500;
        // Errors before the shell reach handleError (below) through React Router's handleDocumentRequest.
        if (shellRendered) loadContext?.log.error({ err: error, url: request.url }, 'page render failed');
      },
    });
  });
}

/**
 * What a loader, an action or a render threw (React Router's handleError): logged on the request's
 * line of the server's log, as React Router's default would print it to the console. A request
 * the browser gave up on is not an error of ours.
 */
export function handleError(error: unknown, { request, context }: LoaderFunctionArgs | ActionFunctionArgs): void {
  if (request.signal.aborted) return;
  // A thrown Response (a 404, a redirect) carries no error; a 500 made from an Error keeps it in `error`.
  const err =
    isRouteErrorResponse(error) && (error as { error?: unknown }).error ? (error as { error?: unknown }).error : error;
  context.log.error({ err, url: request.url }, 'page request failed');
}
