# Hiram: multi-stage image (docs/DEPLOY.md). Build: docker build -t hiram .
# Run:   docker run -p 3000:3000 -v hiram-data:/data hiram   (embedded database under /data)
# Builds with BuildKit or the legacy builder alike (no `# syntax` line: nothing is fetched for the frontend).

# ---- build: dev dependencies, web app (Vite) and server (esbuild) to dist/, PGlite template ----
FROM node:24-slim AS build
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
# `npm install`, not `npm ci`: the lock file is written against a registry mirror that carries only the
# Linux builds of platform-specific packages (biome, oxc, esbuild…), and `npm ci` refuses a lock without
# the others. Versions still come from the lock.
RUN npm install --no-audit --no-fund
# Only what the build reads reaches the context (.dockerignore lists what may).
COPY . .
RUN npm run build \
 && if find dist -name '*.js.map' -o -name '*.css.map' | grep .; then echo 'source maps in dist/' >&2; exit 1; fi

# ---- production dependencies only, less what nothing loads at run time ----
FROM node:24-slim AS deps
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
# Statement PDFs use the regular and bold Noto Sans (Latin, Khmer, Chinese) fonts of @expo-google-fonts;
# the other weights and the preview pictures go. Type declarations, source maps, TypeScript sources and
# Markdown are for editors and readers, not for `node` (about 55 MB).
RUN npm install --omit=dev --no-audit --no-fund && npm cache clean --force \
 && find node_modules/@expo-google-fonts -type f ! -name '*_400Regular.ttf' ! -name '*_700Bold.ttf' \
      ! -name 'package.json' ! -name '*.js' ! -name 'LICENSE*' -delete \
 && find node_modules -type f \( -name '*.d.ts' -o -name '*.d.cts' -o -name '*.d.mts' -o -name '*.js.map' \
      -o -name '*.cjs.map' -o -name '*.mjs.map' -o -name '*.ts.map' -o -name '*.ts' -o -iname '*.md' \
      -o -iname '*.markdown' \) -delete \
 && find node_modules -type d -empty -delete

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
# compose.yaml's one-shot bucket step (it uses the image's own S3 client).
COPY deploy/s3-bucket.mjs ./deploy/
# Everything under /app belongs to root and is readable by all: the "node" user (uid 1000) runs it and
# cannot change it. The build fails if a file is not readable (a first start copies the database template).
# /data is the volume for the embedded database and (STORAGE=local) files; with DATABASE_URL and
# STORAGE=s3 the container keeps nothing, and runs with a read-only root file system (--read-only, a tmpfs
# on /tmp for the compile cache).
RUN if find /app ! -perm -o=r | grep .; then echo 'not readable by all (above)' >&2; exit 1; fi \
 && mkdir -p /data && chown node:node /data && chmod 0700 /data
USER node
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/api/health/ready').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# SIGTERM from `docker stop` reaches node directly (no npm, no shell): graceful shutdown (README).
STOPSIGNAL SIGTERM
CMD ["node", "dist/server/main.js"]
