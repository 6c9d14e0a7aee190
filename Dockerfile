# thinkthread: one image for every platform; the environment decides what it serves (see docs/deploy.md).
FROM node:20-bookworm-slim

# better-sqlite3 downloads a prebuilt binary; the toolchain is the fallback when none fits.
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*

WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund
COPY scripts ./scripts
COPY src ./src
COPY prompts ./prompts
COPY workspace ./workspace
# Compiled once here (esbuild, about a second); at start the bot finds dist/ up to date.
RUN node scripts/build.mjs

# PORT: Slack's HTTP mode and the web chat, bound to WEB_HOST: every interface, so a published port reaches it
# (start-up refuses a web chat there without WEB_CHAT_TOKEN or sign-in). HEALTH_PORT: /healthz, /readyz and
# /metrics for the operator, open even when no platform takes requests (Discord, Slack Socket Mode); publish
# it to no one.
ENV PORT=3000 \
    HEALTH_PORT=8080 \
    WEB_HOST=0.0.0.0 \
    DATABASE_URL=sqlite:/app/data/thinkthread.db
RUN mkdir -p /app/data && chown node:node /app/data
VOLUME /app/data
USER node
EXPOSE 3000 8080

HEALTHCHECK --interval=15s --timeout=5s --start-period=30s \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.HEALTH_PORT||process.env.PORT)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"

# Node itself as PID 1 (not npm), so SIGTERM reaches the bot and its graceful shutdown runs.
CMD ["node", "scripts/start.mjs"]
