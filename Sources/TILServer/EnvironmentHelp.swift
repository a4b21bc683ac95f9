import App

/// The environment variables as `til-server --help` and `serve --help` list them, from their
/// declarations (the README's table is checked against the same list).
enum EnvironmentHelp {
    static let width = 78

    static var text: String {
        var lines = [
            "ENVIRONMENT VARIABLES (an empty value counts as unset; a value not accepted",
            "stops til-server with exit status 78, naming the variable):",
        ]
        for variable in EnvironmentVariable.allCases {
            let declaration = variable.declaration
            let heading = declaration.defaultValue == .none ? variable.name : "\(variable.name) (default \(declaration.defaultValue))"
            lines += wrapped("\(heading): \(declaration.accepts)", indent: 2, hanging: 6)
            lines += wrapped(declaration.meaning, indent: 6, hanging: 6)
        }
        return lines.joined(separator: "\n")
    }

    /// `text` in lines of at most `width` columns: the first indented by `indent`, the rest by `hanging`.
    static func wrapped(_ text: String, indent: Int, hanging: Int) -> [String] {
        var lines: [String] = []
        var line = String(repeating: " ", count: indent)
        for word in text.split(separator: " ") {
            let blank = line.allSatisfy { $0 == " " }
            if !blank, line.count + 1 + word.count > width {
                lines.append(line)
                line = String(repeating: " ", count: hanging)
            }
            line += (line.allSatisfy { $0 == " " } ? "" : " ") + word
        }
        lines.append(line)
        return lines
    }
}
