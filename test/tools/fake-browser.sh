#!/bin/sh
# A fake browser for the MCP Inspector OAuth test (test/mcp/mcp-inspector-oauth.test.ts): the
# Inspector's `open` runs xdg-open, which runs $BROWSER with the authorization URL as its one
# argument. This hands the URL to fake-browser.ts, run from the package root so `tsx` resolves.
set -eu
cd "$(dirname "$0")/../.."
exec node --import tsx test/tools/fake-browser.ts "$@"
