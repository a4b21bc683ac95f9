# Build and run til-server (used by docker-compose.yml).
FROM swift:6.1-bookworm AS build
RUN apt-get update && apt-get install -y --no-install-recommends libpq-dev libssl-dev libcrypt-dev pkg-config \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY Package.swift ./
COPY Sources ./Sources
RUN swift build -c release --product til-server

FROM debian:bookworm-slim
RUN apt-get update && apt-get install -y --no-install-recommends libpq5 libssl3 libcrypt1 ca-certificates \
    && rm -rf /var/lib/apt/lists/* && useradd --system --no-create-home til
COPY --from=build /usr/lib/swift/linux/*.so /usr/lib/swift/linux/
COPY --from=build /src/.build/release/til-server /usr/local/bin/til-server
ENV LD_LIBRARY_PATH=/usr/lib/swift/linux
USER til
EXPOSE 8080
ENTRYPOINT ["til-server"]
