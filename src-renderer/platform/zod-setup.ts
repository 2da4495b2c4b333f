import { z } from 'zod';

/**
 * zod compiles object parsers with `new Function` unless told not to; under the renderer's CSP
 * (no 'unsafe-eval') that probe is refused and reported as a violation. Jitless parsing needs no
 * eval. Import this module before anything that defines a schema (main.tsx does so first).
 */
z.config({ jitless: true });
