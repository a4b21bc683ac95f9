import FoundationEssentials

/// Whether a JSON object (already parsed whole by `JSONDecoder`) names a member twice at its
/// top level. `JSONDecoder` keeps one of the two silently, so `{"type":"webauthn.get",
/// "type":"webauthn.create"}` would mean whatever the parser picked; clientDataJSON with a
/// repeated member is refused instead. Names are compared unescaped (`"t\u0079pe"` is `type`).
enum JSONMemberNames {
    static func repeatTopLevelName(_ json: [UInt8]) -> Bool {
        var names = Set<String>(), depth = 0, index = 0, nameNext = false
        while index < json.count {
            let byte = json[index]
            switch byte {
            case UInt8(ascii: "\""):
                let start = index
                index += 1
                while index < json.count, json[index] != UInt8(ascii: "\"") {
                    index += json[index] == UInt8(ascii: "\\") ? 2 : 1
                }
                if depth == 1 && nameNext {
                    let token = Data(json[start..<min(index + 1, json.count)])
                    guard let name = try? JSONDecoder().decode(String.self, from: token), names.insert(name).inserted else { return true }
                }
                nameNext = false
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
                nameNext = depth == 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
            case UInt8(ascii: ","):
                nameNext = depth == 1
            default:
                break
            }
            index += 1
        }
        return false
    }
}
