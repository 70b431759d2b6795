// react-dom's `server.bun` entry: the same renderer as `react-dom/server`, with the same API.
declare module 'react-dom/server.bun' {
  export {
    renderToPipeableStream,
    renderToReadableStream,
    renderToString,
    renderToStaticMarkup,
    version,
  } from 'react-dom/server';
}
