import Logging
import Postgres
import Web
import XCTest
@testable import App

/// Strict means the ASCII the help shows, in any ASCII case for words: digits from other
/// scripts or widths, look-alike letters (dotless ı, dotted İ, Cyrillic о, fullwidth forms)
/// and invisible or padding characters are refused, naming the variable, and never read as
/// the value they resemble. (Values outside the accepted ones: `ConfigurationTests`.)
final class ConfigurationSpellingTests: XCTestCase {
    private let base = ["DATABASE_URL": "postgres://til:til@127.0.0.1:5432/til", "ENVIRONMENT": "testing"]

    private func load(_ variables: [String: String]) throws -> (AppConfiguration, ServerSettings) {
        let reader = ConfigReader(environment: base.merging(variables) { $1 })
        return (try AppConfiguration(reader: reader), try ServerSettings(reader: reader))
    }

    func testValuesSpelledWithOtherCharactersAreRefusedNamingTheVariable() {
        let refused: [EnvironmentVariable: [String]] = [
            .port: ["８０８０", "٨٠٨٠", "८०८०", "⁸⁰⁸⁰", "8080\u{200B}", "\u{FEFF}8080", " 8080", "8080 ", "8080\n", "8\u{A0}080", "0x1F90", "8e3"],
            .bcryptCost: ["１２", "1\u{2082}", "12\u{0661}"],
            .loginMaxFailures: ["５", "5\u{FE0F}"],
            .refreshRateLimit: ["٣٠", "3O"],
            .environment: ["ｔｅｓｔｉｎｇ", "testıng", "TESTİNG", "tеsting", "testing\u{200B}", " testing", "ᴛesting"],
            .logLevel: ["ınfo", "İNFO", "ｉｎｆｏ", "info\u{200D}"],
            .acronymEditPolicy: ["оwner", "OWNEŔ", "owner\u{AD}"],
            .metrics: ["ＯＮ", "оn", "o\u{308}n", "on\u{200B}"],
            .databaseStatementCache: ["OFF\u{200B}", "ｏｆｆ", "ofᶠ"],
        ]
        for (variable, values) in refused {
            for value in values {
                do {
                    _ = try load([variable.name: value])
                    XCTFail("\(variable.name)=\(value.unicodeScalars.map { String($0.value, radix: 16) }) was accepted")
                } catch {
                    XCTAssertTrue("\(error)".hasPrefix("\(variable.name) must be \(variable.declaration.accepts)"), "\(error)")
                }
            }
        }
    }

    func testWordsMayBeInAnyASCIICase() throws {
        let (configuration, _) = try load([
            "ENVIRONMENT": "TeStInG", "LOG_LEVEL": "NOTICE", "ACRONYM_EDIT_POLICY": "Owner", "METRICS": "Off",
            "DATABASE_STATEMENT_CACHE": "ON",
        ])
        XCTAssertEqual(configuration.environment, .testing)
        XCTAssertEqual(configuration.logLevel, .notice)
        XCTAssertEqual(configuration.database.statementCache, true)
    }
}
