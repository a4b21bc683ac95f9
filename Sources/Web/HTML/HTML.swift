/// A piece of HTML that is already safe to send: the only thing a page is built from.
///
/// Text can enter it only through interpolation, which escapes it, so no value a client
/// sent (a username, a client's name, a `state`) can ever open a tag or leave an attribute:
///
/// ```swift
/// let page: HTML = "<p>Signed in as \(username)</p>"   // username escaped
/// let list: HTML = "<ul>\(items)</ul>"                   // items: HTML, kept as is
/// ```
public struct HTML: Sendable, Equatable, ExpressibleByStringInterpolation, CustomStringConvertible {
    /// The markup, escaped where it came from text.
    public private(set) var markup: String

    public init(stringLiteral literal: String) { markup = literal }

    public init(stringInterpolation: Interpolation) { markup = stringInterpolation.markup }

    /// `text` escaped: `&`, `<`, `>`, `"` and `'` become character references.
    public init(escaping text: some StringProtocol) { markup = Self.escape(text) }

    /// Nothing at all.
    public static let empty: HTML = ""

    public var description: String { markup }

    /// Pieces one after another.
    public static func joined(_ pieces: some Sequence<HTML>, separator: HTML = .empty) -> HTML {
        HTML(markup: pieces.map(\.markup).joined(separator: separator.markup))
    }

    private init(markup: String) { self.markup = markup }

    /// Text safe inside an element and inside a quoted attribute value alike.
    public static func escape(_ text: some StringProtocol) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }

    public struct Interpolation: StringInterpolationProtocol {
        var markup = ""

        public init(literalCapacity: Int, interpolationCount: Int) {
            markup.reserveCapacity(literalCapacity + 16 * interpolationCount)
        }

        public mutating func appendLiteral(_ literal: String) { markup += literal }

        /// Text: escaped.
        public mutating func appendInterpolation(_ text: some StringProtocol) { markup += HTML.escape(text) }

        /// A number: nothing to escape.
        public mutating func appendInterpolation(_ number: Int) { markup += String(number) }

        /// HTML already built: kept as is.
        public mutating func appendInterpolation(_ html: HTML) { markup += html.markup }

        /// Several pieces of HTML, one after another.
        public mutating func appendInterpolation(_ pieces: [HTML]) { markup += pieces.map(\.markup).joined() }
    }
}
