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
        let digits = (64 - n.leadingZeroBitCount + 3) / 4
        // Written in place: `prefix + "-" + String(n, radix: 16)` built three strings per request.
        return String(unsafeUninitializedCapacity: prefix.utf8.count + 1 + digits) { bytes in
            var index = 0
            for byte in prefix.utf8 { bytes[index] = byte; index += 1 }
            bytes[index] = UInt8(ascii: "-")
            for shift in stride(from: (digits - 1) * 4, through: 0, by: -4) {
                index += 1
                bytes[index] = hexDigits[Int((n >> UInt64(shift)) & 0xF)]
            }
            return index + 1
        }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// A client-sent id is echoed only if it is short and plain (no header injection, no log
    /// pollution): up to 128 characters of `[A-Za-z0-9._-]`.
    public static func isAcceptable(_ id: String) -> Bool {
        !id.isEmpty && id.utf8.count <= 128 && id.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A)
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".")
        }
    }
}
