// swift-tools-version:6.0
import PackageDescription

/// Settings every Swift target shares: Swift 6 mode plus the upcoming features that keep
/// module boundaries honest (see ../shared/STYLE.md §2).
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "TIL",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "til-server", targets: ["TILServer"]),
        .executable(name: "til-bench", targets: ["TILBench"]),
        .library(name: "Web", targets: ["Web"]),
        .library(name: "Postgres", targets: ["Postgres"]),
        .library(name: "Crypt", targets: ["Crypt"]),
        .library(name: "TILClient", targets: ["TILClient"]),
        .executable(name: "til", targets: ["TILCLI"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
    ],
    targets: [
        // C shims, one per system library.
        .target(name: "CLinux"),
        .systemLibrary(name: "CLibPQ", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
        .systemLibrary(name: "CCrypt", pkgConfig: "libcrypt", providers: [.apt(["libcrypt-dev"])]),
        .systemLibrary(name: "COpenSSL", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),

        // The web stack: sockets ← HTTP/1.1 server ← Vapor-style framework.
        .target(name: "Sockets", dependencies: ["CLinux"], swiftSettings: swiftSettings),
        .target(
            name: "HTTPServer",
            dependencies: ["Sockets", .product(name: "Logging", package: "swift-log")],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "Web",
            dependencies: ["HTTPServer", .product(name: "Logging", package: "swift-log")],
            swiftSettings: swiftSettings
        ),
        .target(name: "WebTesting", dependencies: ["Web", "Sockets"], swiftSettings: swiftSettings),

        // Storage and crypto, beside the web stack; neither knows about HTTP.
        .target(
            name: "Postgres",
            dependencies: ["CLibPQ", .product(name: "Logging", package: "swift-log")],
            swiftSettings: swiftSettings
        ),
        .target(name: "Crypt", dependencies: ["CCrypt", "COpenSSL", "CLinux"], swiftSettings: swiftSettings),

        // The wire types, shared by the server and its clients: Foundation only.
        .target(name: "TILWire", swiftSettings: swiftSettings),

        // The product: the TIL API and its executable.
        .target(
            name: "App",
            dependencies: ["TILWire", "Web", "Sockets", "Postgres", "Crypt", .product(name: "Logging", package: "swift-log")],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "TILServer",
            dependencies: ["App", "Postgres", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            swiftSettings: swiftSettings
        ),

        // Clients: the Swift library (URLSession, no NIO) and the `til` command-line tool.
        .target(name: "TILClient", dependencies: ["TILWire"], swiftSettings: swiftSettings),
        .executableTarget(
            name: "TILCLI",
            dependencies: ["TILClient", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            swiftSettings: swiftSettings
        ),

        .executableTarget(
            name: "TILBench",
            dependencies: ["Crypt", "Postgres", .product(name: "Logging", package: "swift-log")],
            swiftSettings: swiftSettings
        ),

        .testTarget(name: "HTTPServerTests", dependencies: ["HTTPServer", "Sockets", "WebTesting"], swiftSettings: swiftSettings),
        .testTarget(name: "WebTests", dependencies: ["Web", "WebTesting"], swiftSettings: swiftSettings),
        .testTarget(name: "PostgresTests", dependencies: ["Postgres"], swiftSettings: swiftSettings),
        .testTarget(name: "CryptTests", dependencies: ["Crypt"], swiftSettings: swiftSettings),
        .testTarget(name: "AppTests", dependencies: ["App", "WebTesting", "Postgres", "Crypt"], swiftSettings: swiftSettings),
        .testTarget(
            name: "TILClientTests",
            dependencies: ["TILClient", "App", "Web", "WebTesting", "Postgres", "Crypt", .product(name: "Logging", package: "swift-log")],
            swiftSettings: swiftSettings
        ),
    ]
)
