# syntax=docker/dockerfile:1

# Build: a static binary (every dependency is pure Go; CGO off keeps Pebble
# on its Go compression paths and the SQLite driver is modernc's).
FROM golang:1.26 AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN --mount=type=cache,target=/go/pkg/mod go mod download
COPY . .
RUN --mount=type=cache,target=/go/pkg/mod \
    --mount=type=cache,target=/root/.cache/go-build \
    CGO_ENABLED=0 go build -trimpath -ldflags="-s -w" -o /out/prospectd ./cmd/prospectd \
 && mkdir -p /out/data

# Run: no shell, no package manager, a non-root user (uid 65532).
FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/prospectd /usr/local/bin/prospectd
# The data dir holds the state store (SQLite until PostgreSQL is configured);
# owned by the runtime user so a fresh named volume is writable.
COPY --from=build --chown=65532:65532 /out/data /data
VOLUME /data
EXPOSE 8080
USER nonroot:nonroot
ENTRYPOINT ["/usr/local/bin/prospectd"]
CMD ["serve", "--engine", "elasticsearch", "--elasticsearch-url", "http://elasticsearch:9200", "--addr", "0.0.0.0:8080", "--data-dir", "/data"]
