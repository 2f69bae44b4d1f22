# The Frontdesk server image. Built and pushed by CI on version tags (.github/workflows/content.yml).
# Stage 1 installs everything, builds the code and the sample catalog; stage 2 is the official
# Node runtime image with the built server, production dependencies only, run as the non-root
# user node, so `docker run -p 3000:3000 …` answers at once with the sample catalog.

FROM node:22-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build && npm prune --omit=dev

FROM node:22-slim AS runtime
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000 FRONTDESK_CATALOG=/app/dist/catalog FRONTDESK_DATA=/data/frontdesk.json
WORKDIR /app
COPY --from=build --chown=node:node /app/package.json ./
COPY --from=build --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/dist ./dist
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=3s --start-period=10s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:3000/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "dist/cli.js", "serve"]
