#!/usr/bin/env node
// Entry point of the `linkguard` command (package.json "bin"). The TypeScript is compiled to dist/
// by `npm run build`, which `npm ci` runs through the `prepare` script. Under a supervisor run this
// file with node directly (README "Deployment"): npm in between does not pass SIGTERM on.
let main;
try {
  ({ main } = await import('../dist/src/cli/main.js'));
} catch (error) {
  // A clone that was never built: one line saying what to do, not a module-resolution trace.
  if (
    error?.code === 'ERR_MODULE_NOT_FOUND' &&
    String(error.message).includes('dist/src/cli/main.js')
  ) {
    process.stderr.write('linkguard: dist/ is missing; run `npm run build` first\n');
    process.exit(1);
  }
  throw error;
}
await main(process.argv);
