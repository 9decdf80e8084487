# syntax=docker/dockerfile:1
# Testbed Console: the API server, the realtime server and the built console in one image.
# Build: docker build -t testbed-console .   Run: see docs/deploy.md (needs APP_KEY, APP_URL,
# MAIL_URL and DATABASE_URL; the root file system may be read-only, /tmp is the only writable path).

# --- build: every dependency, then the console (dist/) and the server (build/server/) ----------
FROM node:22-bookworm-slim AS build
WORKDIR /src
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

# --- production dependencies only -------------------------------------------------------------
FROM node:22-bookworm-slim AS dependencies
WORKDIR /src
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force

# --- runtime: no sources, no dev dependencies, no TypeScript, not root ---------------------------
FROM node:22-bookworm-slim
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8000 \
    REVERB_PORT=8080 \
    STORAGE_DIR=/tmp/testbed \
    CLUSTER=kubernetes
WORKDIR /app
COPY --from=dependencies /src/node_modules ./node_modules
COPY --from=build /src/dist ./dist
COPY --from=build /src/build ./build
COPY package.json ./
USER node
EXPOSE 8000 8080
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8000) + '/livez').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# node directly (no npm in between): SIGTERM reaches the server, which drains and exits 0.
# The V8 flags of scripts/server-node-flags.mjs (idle memory; garbage collected sooner).
CMD ["node", "--enable-source-maps", "--max-semi-space-size=2", "--max-old-space-size=1024", "build/server/main.js"]
