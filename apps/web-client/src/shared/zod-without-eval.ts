import { config } from "zod";

// The relay serves the app (page and service worker) under a Content-Security-Policy without 'unsafe-eval': zod's
// compiled fast path (`new Function`) would be refused there, and reported as a violation on every start. Imported
// first by each entry point, so no schema parses before.
config({ jitless: true });
