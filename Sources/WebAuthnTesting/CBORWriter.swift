public import WebAuthn

/// Encodes `CBORValue`s in CTAP2's canonical form (shortest arguments, definite lengths; map
/// entries in the order given, which the callers give canonically): what an authenticator
/// writes, for the software authenticator and the tests.
public enum CBORWriter {
    public static func encode(_ value: CBORValue) -> [UInt8] {
        var output: [UInt8] = []
        write(value, to: &output)
        return output
    }

    private static func write(_ value: CBORValue, to output: inout [UInt8]) {
        switch value {
        case .unsigned(let n): head(0, n, &output)
        case .negative(let n): head(1, n, &output)
        case .bytes(let bytes):
            head(2, UInt64(bytes.count), &output)
            output += bytes
        case .text(let text):
            head(3, UInt64(text.utf8.count), &output)
            output += Array(text.utf8)
        case .array(let elements):
            head(4, UInt64(elements.count), &output)
            for element in elements { write(element, to: &output) }
        case .map(let entries):
            head(5, UInt64(entries.count), &output)
            for entry in entries {
                write(entry.key, to: &output)
                write(entry.value, to: &output)
            }
        case .bool(let flag): output.append(flag ? 0xF5 : 0xF4)
        case .null: output.append(0xF6)
        }
    }

    /// The initial byte and argument, in the fewest bytes.
    private static func head(_ major: UInt8, _ argument: UInt64, _ output: inout [UInt8]) {
        let width: Int
        switch argument {
        case 0..<24:
            output.append(major << 5 | UInt8(argument))
            return
        case 24..<0x100: (output, width) = (output + [major << 5 | 24], 1)
        case 0x100..<0x1_0000: (output, width) = (output + [major << 5 | 25], 2)
        case 0x1_0000..<0x1_0000_0000: (output, width) = (output + [major << 5 | 26], 4)
        default: (output, width) = (output + [major << 5 | 27], 8)
        }
        for index in (0..<width).reversed() { output.append(UInt8(truncatingIfNeeded: argument >> (8 * index))) }
    }
}

extension CBORValue {
    /// An integer of either sign.
    public static func int(_ value: Int) -> CBORValue {
        value >= 0 ? .unsigned(UInt64(value)) : .negative(UInt64(-1 - value))
    }
}
