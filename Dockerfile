# syntax=docker/dockerfile:1
# ledger-sentinel image: build with the full Node image (compilers for better-sqlite3 and re2), run on the slim one.
#
#   docker build -t ledger-sentinel:0.1.0 .
#   docker run --read-only --tmpfs /tmp -v ledger-sentinel-state:/var/lib/ledger-sentinel \
#     -v "$PWD/config.yaml:/etc/ledger-sentinel/config.yaml:ro" -p 9464:9464 ledger-sentinel:0.1.0
#
# Base images are pinned by exact tag; both stages use the same Node and Debian release so the native module
# built in the first runs in the second. For reproducible builds also pin the digest, e.g.
#   FROM node:22.23.3-bookworm-slim@sha256:<digest from `docker buildx imagetools inspect`>
# (docs/deployment.md, "The Docker image").

FROM node:22.23.3-bookworm AS build
WORKDIR /app
# Compile better-sqlite3 from source with the toolchain of this image instead of downloading a prebuilt binary.
# node-gyp takes the headers from this image (nodedir) rather than downloading them.
ENV npm_config_build_from_source=true \
    npm_config_nodedir=/usr/local \
    npm_config_fund=false \
    npm_config_audit=false \
    npm_config_update_notifier=false
# Dependencies first, so that this layer is reused until package-lock.json changes. `npm ci` runs the package's
# prepare script (tsc), which needs the sources, so install scripts are deferred: the next RUN builds the two
# native dependencies (better-sqlite3, and re2 for linear-time rule regexes), then the TypeScript build runs once
# the sources are copied.
COPY package.json package-lock.json .npmrc ./
# The workspace packages' manifests (packages/*), so that `npm ci` links them into node_modules/@ledger-sentinel/.
COPY packages/ledger-model/package.json ./packages/ledger-model/
COPY packages/simulator/package.json ./packages/simulator/
RUN --mount=type=cache,target=/root/.npm \
    npm ci --ignore-scripts \
    && npm rebuild better-sqlite3 re2 \
    && node -e "require('better-sqlite3')(':memory:').close(); new (require('re2'))('a+').test('aa')"
COPY tsconfig.json tsconfig.build.json ./
COPY packages/ ./packages/
COPY src/ ./src/
COPY bin/ ./bin/
COPY rules/ ./rules/
# `npm run build` compiles the workspace packages first. The simulator is compiled only because `demo` and
# `simulate` name its types; they load it lazily, and the image does not ship it (its link is removed here and
# the runtime stage copies only ledger-model), so they say it is missing instead of starting.
RUN npm run build \
    && npm prune --omit=dev \
    && rm -rf node_modules/@ledger-sentinel/simulator \
    && chmod 0755 bin/ledger-sentinel.js \
    && node bin/ledger-sentinel.js --version

FROM node:22.23.3-bookworm-slim AS runtime
# glibc returns a freed block of 64 KiB or more to the kernel at once instead of keeping it in the heap: response
# bodies and socket chunks of that size come and go hundreds of times a second at the ledger's peak, and the
# default (a threshold that rises to the largest block freed) kept them resident, about 13 MiB of RSS more at
# 10,000 TPS (docs/performance.md, section 6, "Memory over a sustained peak"). The peak bench runs the daemon
# with it too.
ENV NODE_ENV=production \
    MALLOC_MMAP_THRESHOLD_=65536
WORKDIR /app
COPY --from=build /app/package.json ./package.json
COPY --from=build /app/node_modules/ ./node_modules/
COPY --from=build /app/dist/ ./dist/
COPY --from=build /app/packages/ledger-model/package.json ./packages/ledger-model/package.json
COPY --from=build /app/packages/ledger-model/dist/ ./packages/ledger-model/dist/
COPY --from=build /app/bin/ ./bin/
COPY --from=build /app/rules/ ./rules/
# The state directory is the only place the daemon writes (besides /tmp); owned by the runtime user so a fresh
# named volume inherits it. Config, rules and secrets are mounted read-only under /etc/ledger-sentinel.
RUN ln -s /app/bin/ledger-sentinel.js /usr/local/bin/ledger-sentinel \
    && mkdir -p /etc/ledger-sentinel/rules /etc/ledger-sentinel/secrets /var/lib/ledger-sentinel \
    && chown 1000:1000 /var/lib/ledger-sentinel
VOLUME ["/var/lib/ledger-sentinel"]
# The image's `node` user, by number so that Kubernetes' runAsNonRoot can verify it without /etc/passwd.
USER 1000:1000
EXPOSE 9464
# Kubernetes ignores HEALTHCHECK (the chart has probes); for plain Docker, probe /healthz with node itself,
# since the slim image has no curl or wget.
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
    CMD ["node", "-e", "fetch('http://127.0.0.1:9464/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["ledger-sentinel", "run"]
CMD ["--config", "/etc/ledger-sentinel/config.yaml"]
