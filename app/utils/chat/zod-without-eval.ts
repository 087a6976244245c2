import { config } from 'zod/mini'

// Zod compiles object checks with `new Function` when it may, and probes whether it may by trying. The page's CSP
// has no 'unsafe-eval', so the probe fails (harmlessly) but is reported as a security policy violation. Imported
// for its effect by every browser module that checks with zod, before it checks anything.
config({ jitless: true })
