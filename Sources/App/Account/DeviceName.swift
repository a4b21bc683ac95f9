import Foundation

/// A session's device in a few words, from the `User-Agent` its login sent: "Firefox on
/// Linux", "til 1.4", or the agent itself when nothing familiar is in it. Only a hint for the
/// person reading their own sessions (a client can send any agent), so it never decides
/// anything; the page shows the full agent beside it.
enum DeviceName {
    /// Browsers by the token that names them, most specific first (Edge and Opera also say
    /// "Chrome", Chrome also says "Safari").
    private static let browsers: [(token: String, name: String)] = [
        ("Edg/", "Edge"), ("OPR/", "Opera"), ("Firefox/", "Firefox"), ("Chromium/", "Chromium"),
        ("HeadlessChrome/", "Headless Chrome"), ("Chrome/", "Chrome"), ("Safari/", "Safari"),
    ]
    private static let systems: [(token: String, name: String)] = [
        ("Android", "Android"), ("iPhone", "iPhone"), ("iPad", "iPad"), ("Mac OS X", "macOS"),
        ("Windows", "Windows"), ("CrOS", "ChromeOS"), ("Linux", "Linux"),
    ]

    static func describe(_ userAgent: String?) -> String {
        guard let agent = userAgent?.trimmingCharacters(in: .whitespaces), !agent.isEmpty else { return "Unknown device" }
        if let browser = browsers.first(where: { agent.contains($0.token) })?.name {
            guard let system = systems.first(where: { agent.contains($0.token) })?.name else { return browser }
            return "\(browser) on \(system)"
        }
        // A program's agent (`til/1.4`, `curl/8.5.0`): its first product, version kept.
        let product = agent.prefix { $0 != " " }
        return String(product.replacingOccurrences(of: "/", with: " ").prefix(60))
    }
}
