import Synchronization

/// Request ids: a random per-process prefix plus a counter — unique, cheap, and free of the
/// syscall a random number per request would cost.
public enum RequestID {
    private static let prefix: String = {
        let value = UInt32.random(in: .min ... .max)
        let hex = String(value, radix: 16)
        return String(repeating: "0", count: 8 - hex.count) + hex
    }()
    private static let counter = Atomic<UInt64>(0)

    public static func next() -> String {
        let n = counter.add(1, ordering: .relaxed).newValue
        return prefix + "-" + String(n, radix: 16)
    }

    /// A client-sent id is echoed only if it is short and plain (no header injection, no log
    /// pollution): up to 128 characters of `[A-Za-z0-9._-]`.
    public static func isAcceptable(_ id: String) -> Bool {
        !id.isEmpty && id.utf8.count <= 128 && id.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A)
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".")
        }
    }
}
