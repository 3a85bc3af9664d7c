# Almanac's container image: built once (npm run build), run as many times as needed without building.
# Build:  docker build -t almanac .        Run one instance on its embedded database:
#         docker run -p 3000:3000 -v almanac-data:/data almanac
# Several instances on PostgreSQL and Redis: compose.yaml. deploy/check-build-stage.mjs runs this file's build-stage
# commands on a clean clone (CI runs it; no Docker daemon is needed for that).
ARG NODE_VERSION=24.21.0

# ── build: every dependency, the build, then the production dependencies only ──────────────────────────────
FROM node:${NODE_VERSION}-bookworm-slim AS build
WORKDIR /app
# Built once: Turbopack's build cache would be written only to be deleted below.
ENV NEXT_TELEMETRY_DISABLED=1 NEXT_BUILD_CACHE=0
COPY package.json package-lock.json ./
RUN npm ci
COPY . .
RUN npm run build
RUN npm ci --omit=dev && rm -rf .next/cache test e2e bench examples

# ── runtime: the built tree, a non-root user, a liveness check ──────────────────────────────────────────────
FROM node:${NODE_VERSION}-bookworm-slim AS runtime
ENV NODE_ENV=production NEXT_TELEMETRY_DISABLED=1 PORT=3000 DATA_DIR=/data
WORKDIR /app
RUN mkdir -p /data && chown node:node /data
COPY --from=build --chown=node:node /app /app
USER node
VOLUME ["/data"]
EXPOSE 3000
# Liveness only (no I/O): a slow database must not get a live container restarted. Load balancers use /api/health/ready.
HEALTHCHECK --interval=15s --timeout=3s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/api/health/live`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# node, not npm: signals reach the server directly, so SIGTERM drains requests in flight (scripts/serve.mjs).
CMD ["node", "scripts/start.mjs", "-H", "0.0.0.0"]
