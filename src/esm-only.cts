/**
 * What `require('katalog')` loads on a Node.js that cannot `require()` ES modules (before 20.19 and 22.12, or with
 * `--no-experimental-require-module`). Newer Node.js takes the `module-sync` condition of package.json's `exports`
 * instead and loads the ES module itself, so this file runs only where that is impossible: it says why and what to
 * do, instead of Node's `ERR_PACKAGE_PATH_NOT_EXPORTED`.
 */
throw new Error(
  'katalog is an ES module (ESM only) and this Node.js ' +
    process.version +
    ' cannot require() ES modules here (too old, or started with --no-experimental-require-module). ' +
    "Use import { createRuntime } from 'katalog' in an ES module (\"type\": \"module\" or a .mjs/.mts file), " +
    "or await import('katalog') from CommonJS; Node.js 20.19+ and 22.12+ can also require('katalog').",
);
