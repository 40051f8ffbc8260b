# syntax=docker/dockerfile:1
# Hiram: multi-stage image (docs/DEPLOY.md). Build: docker build -t hiram .
# Run:   docker run -p 3000:3000 -v hiram-data:/data hiram   (embedded database under /data)

# ---- build: dev dependencies, web app (Vite) and server (esbuild) to dist/, PGlite template ----
FROM node:24-slim AS build
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
# `npm install`, not `npm ci`: the lock file is written against a registry mirror that carries only the
# Linux builds of platform-specific packages (biome, oxc, esbuild…), and `npm ci` refuses a lock without
# the others. Versions still come from the lock.
RUN npm install --no-audit --no-fund
COPY . .
RUN npm run build

# ---- production dependencies only ----
FROM node:24-slim AS deps
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
# Statement PDFs use the regular and bold Noto Sans (Latin, Khmer, Chinese) fonts of @expo-google-fonts;
# the other weights (~85 MB) are dropped.
RUN npm install --omit=dev --no-audit --no-fund && npm cache clean --force \
 && find node_modules/@expo-google-fonts -name '*.ttf' ! -name '*_400Regular.ttf' ! -name '*_700Bold.ttf' -delete

# ---- runtime: node, production node_modules, dist; no sources, no compilers, no npm at run time ----
FROM node:24-slim
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/data \
    NODE_COMPILE_CACHE=/tmp/node-compile-cache
WORKDIR /app
# Statement PDFs embed the Noto fonts shipped in node_modules (@expo-google-fonts/*); nothing from apt.
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json ./
# The image's own "node" user (uid 1000): never root. /data is the volume for the embedded database and
# (STORAGE=local) files; with DATABASE_URL and STORAGE=s3 the container keeps nothing.
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/api/health/ready').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# SIGTERM from `docker stop` reaches node directly (no npm, no shell): graceful shutdown (README).
STOPSIGNAL SIGTERM
CMD ["node", "dist/server/main.js"]
