#!/usr/bin/env node
// Entry point of the `linkguard` command (package.json "bin"). The TypeScript is compiled to dist/
// by `npm run build`, which `npm ci` runs through the `prepare` script.
import { main } from '../dist/src/cli/main.js';

await main(process.argv);
