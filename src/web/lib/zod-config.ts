import { z } from 'zod';

// Zod compiles object parsers with `new Function` unless told not to; the server's Content-Security-Policy
// forbids eval, and even zod's caught probe for it is reported as a CSP violation. Schemas read this when
// they are built, so main.tsx imports this module before anything that defines one.
z.config({ jitless: true });
