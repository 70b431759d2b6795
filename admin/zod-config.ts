import { z } from 'zod';

// Imported first by main.tsx. zod builds each object schema's fast parser with `new Function`,
// and at the first schema it probes whether it may: under the back office's strict CSP (no
// 'unsafe-eval') that probe is reported as a violation even though zod catches it. Forms here
// parse a few fields, so the plain parser costs nothing that shows.
z.config({ jitless: true });
