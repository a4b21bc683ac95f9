import Foundation

/// UUID text conversion without Foundation's per-call cost (which dominated decoding a
/// 100-row result): PostgreSQL sends the canonical lowercase form, 36 ASCII bytes.
enum UUIDText {
    static func parse(_ text: String) -> UUID? {
        var text = text
        return text.withUTF8 { bytes -> UUID? in
            guard bytes.count == 36 else { return nil }
            var raw: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
            let parsed = withUnsafeMutableBytes(of: &raw) { output -> Bool in
                var index = 0
                for position in 0..<16 {
                    if index == 8 || index == 13 || index == 18 || index == 23 {
                        guard bytes[index] == UInt8(ascii: "-") else { return false }
                        index += 1
                    }
                    guard let high = hexValue(bytes[index]), let low = hexValue(bytes[index + 1]) else { return false }
                    output[position] = high << 4 | low
                    index += 2
                }
                return true
            }
            return parsed ? UUID(uuid: raw) : nil
        }
    }

    static func format(_ uuid: UUID) -> String {
        let digits: [UInt8] = Array("0123456789abcdef".utf8)
        var output = [UInt8]()
        output.reserveCapacity(36)
        withUnsafeBytes(of: uuid.uuid) { raw in
            for (index, byte) in raw.enumerated() {
                if index == 4 || index == 6 || index == 8 || index == 10 { output.append(UInt8(ascii: "-")) }
                output.append(digits[Int(byte >> 4)])
                output.append(digits[Int(byte & 15)])
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
