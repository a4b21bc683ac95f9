import Foundation

/// A scrape of `/metrics` read back: every sample by name and labels, after checking each line
/// is Prometheus text exposition format (`# HELP`/`# TYPE` comments or `name{labels} value`).
struct PrometheusText {
    struct Sample {
        let name: String
        let labels: [String: String]
        let value: Double
    }

    let samples: [Sample]
    /// Lines that are neither a comment nor a well-formed sample (empty for a valid scrape).
    let malformed: [String]

    init(_ text: String) {
        var samples: [Sample] = []
        var malformed: [String] = []
        for line in text.split(separator: "\n") {
            if line.hasPrefix("# HELP ") || line.hasPrefix("# TYPE ") { continue }
            if let sample = Self.parse(line) { samples.append(sample) } else { malformed.append(String(line)) }
        }
        self.samples = samples
        self.malformed = malformed
    }

    /// The value of the one sample named `name` whose labels include `labels`; 0 when absent
    /// (a counter not yet incremented).
    func value(_ name: String, _ labels: [String: String] = [:]) -> Double {
        samples.filter { sample in sample.name == name && labels.allSatisfy { sample.labels[$0.key] == $0.value } }
            .reduce(0) { $0 + $1.value }
    }

    func contains(_ name: String) -> Bool { samples.contains { $0.name == name } }

    /// `name{a="x",b="y"} 1.5`, or nil when the line is not a sample.
    private static func parse(_ line: Substring) -> Sample? {
        let namePattern = /[a-zA-Z_:][a-zA-Z0-9_:]*/
        let labelPattern = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/
        guard let name = line.prefixMatch(of: namePattern)?.output else { return nil }
        var rest = line[name.endIndex...]
        var labels: [String: String] = [:]
        if rest.first == "{" {
            guard let close = rest.firstIndex(of: "}") else { return nil }
            var inside = rest[rest.index(after: rest.startIndex)..<close]
            while !inside.isEmpty {
                guard let label = inside.prefixMatch(of: labelPattern) else { return nil }
                labels[String(label.output.1)] = String(label.output.2)
                inside = inside[label.range.upperBound...]
                if inside.first == "," { inside = inside.dropFirst() }
            }
            rest = rest[rest.index(after: close)...]
        }
        guard rest.first == " ", let value = Double(rest.dropFirst()) ?? special(rest.dropFirst()) else { return nil }
        return Sample(name: String(name), labels: labels, value: value)
    }

    private static func special(_ text: Substring) -> Double? {
        switch text {
        case "+Inf": .infinity
        case "-Inf": -.infinity
        case "NaN": .nan
        default: nil
        }
    }
}
