# One image for both roles: `npm run serve` (API + web app) and `npm run worker` (scale-out worker process).
# Node 24, a supported LTS (.nvmrc); CI runs the test suite on the same major version.
FROM node:24-bookworm-slim
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
COPY core/package.json core/
COPY client/package.json client/
COPY server/package.json server/
COPY web/package.json web/
# Dev dependencies stay: the server runs TypeScript through tsx, and the web build needs Vite.
RUN npm ci
COPY . .
RUN npm run build
ENV DATA_DIR=/data PORT=5000
VOLUME /data
EXPOSE 5000
# Liveness: the process answers. (The worker role, which serves no HTTP, sets its own check in docker-compose.yml.)
HEALTHCHECK --interval=30s --timeout=5s --start-period=120s --retries=3 CMD ["node", "scripts/healthcheck.mjs"]
CMD ["npm", "run", "serve"]
