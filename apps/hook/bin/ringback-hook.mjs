#!/usr/bin/env node
// The bin: a file that exists before the build (pnpm links workspace bins at install, when dist/ is not there yet).
import "../dist/ringback-hook.mjs";
