# syntax=docker/dockerfile:1
# linkguard image: one instance of the service (README "Running several instances"). Three stages:
# `build` compiles the TypeScript, `deps` installs the production dependencies with the native
# SQLite addon built, and the runtime stage holds only what `linkguard serve` and the CLI read:
# dist/, data/, bin/, package.json and the production node_modules.

# The version the project is tested on (README "Node"), pinned by tag so rebuilds get the same
# Node; Debian bookworm for glibc, which better-sqlite3's prebuilt binaries and node-gyp expect.
ARG NODE_IMAGE=node:20.20.2-bookworm-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
# --ignore-scripts: `npm ci` would run the `prepare` script (the build) before the sources are
# here, and tsc needs no native addon. Optional packages are the local chains of the x402 demo.
RUN npm ci --ignore-scripts --omit=optional --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
RUN npm run build

FROM ${NODE_IMAGE} AS deps
WORKDIR /app
# better-sqlite3 downloads a prebuilt binary for this Node when one exists and otherwise compiles
# from source (README "Node": python3, make, g++); the toolchain stays in this stage.
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
# Scripts off for the whole tree (no `prepare`, no tsc here), then on for the one native addon
# that needs its install step; bufferutil and utf-8-validate load their shipped prebuilds.
RUN npm ci --omit=dev --omit=optional --ignore-scripts --no-audit --no-fund \
  && npm rebuild better-sqlite3 \
  && npm cache clean --force

FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# package.json: "type": "module" makes Node read dist/ as ES modules. data/: the brand catalog,
# lists, Unicode confusables, word list, URL model and RDAP bootstrap, found at run time by walking
# up from dist/src/engine-data/ (docs/architecture.md "Data").
COPY package.json ./
COPY bin ./bin
COPY data ./data
# `linkguard` on the PATH for the CLI (`docker compose exec linkguard-1 linkguard keys create`).
# .linkguard/ is where the embedded SQLite store lives when DATABASE_URL is not set: the only
# directory the service writes to, so the only one the runtime user owns.
RUN ln -s /app/bin/linkguard.js /usr/local/bin/linkguard \
  && mkdir /app/.linkguard \
  && chown node:node /app/.linkguard
# The official Node image's unprivileged user (uid 1000); the code and data stay root-owned and
# read-only to it.
USER node
EXPOSE 8402
# Liveness on GET /v1/status (README "API": no credentials, no store or chain call). The slim
# image has no curl: Node's own fetch, bounded so a hung process counts as unhealthy.
HEALTHCHECK --interval=10s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8402) + '/v1/status', { signal: AbortSignal.timeout(4000) }).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# What `npm start` runs, without npm in between so SIGTERM reaches the server's clean shutdown.
CMD ["node", "--max-semi-space-size=32", "dist/src/cli/main.js", "serve"]
