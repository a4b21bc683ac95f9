import Glibc
import Logging
import WebTesting
import XCTest
@testable import Web

/// Issue 17, log injection: every line is one logfmt record whose values read back exactly as
/// logged, whatever they hold.
final class LogfmtLogHandlerTests: XCTestCase {
    /// What an attacker may put in a value: quotes, backslashes, every kind of line break, a
    /// terminal escape, a C1 CSI, bidi and zero-width characters, a tag character, a forged field.
    private let hostile = "a\" event=\"login.succeeded\" b=\"\\\"\n\r\u{0B}\u{0C}\u{85}\u{2028}\u{2029}"
        + "\u{1B}[2J\u{9B}31m\u{7F}\u{0}\t\u{202E}evil\u{200B}\u{E0041}\u{FEFF} end=x"

    func testEveryValueReadsBackExactlyAndNothingElseIsAField() throws {
        let lines = LogfmtCapture()
        lines.logger().notice(
            "audit \(hostile)", metadata: ["user-agent": .string(hostile), "event": "login.failed", "n": .stringConvertible(42)])
        XCTAssertEqual(lines.lines.count, 1)
        let line = try XCTUnwrap(lines.lines.first)
        XCTAssertFalse(line.contains(where: \.isNewline), "a line break inside the line: \(line)")
        XCTAssertFalse(line.unicodeScalars.contains { [.control, .format].contains($0.properties.generalCategory) })
        let records = LogfmtReader.records(line)
        XCTAssertEqual(records.count, 1, line)
        let record = try XCTUnwrap(records.first ?? nil, "not one logfmt record: \(line)")
        XCTAssertEqual(record.map(\.key), ["time", "level", "logger", "msg", "event", "n", "user-agent"])
        XCTAssertEqual(record[field: "msg"], "audit \(hostile)")
        XCTAssertEqual(record[field: "user-agent"], hostile)
        XCTAssertEqual(record[field: "event"], "login.failed")
        XCTAssertEqual(record[field: "level"], "notice")
        XCTAssertEqual(record[field: "n"], "42")
        XCTAssertFalse(line.contains(#"event="login.succeeded""#), line)
    }

    func testEscapesAreTheDocumentedOnes() {
        XCTAssertEqual(Logfmt.quoted("plain text, é ü 漢字 🙂"), #""plain text, é ü 漢字 🙂""#)
        XCTAssertEqual(Logfmt.quoted("q\"b\\"), #""q\"b\\""#)
        XCTAssertEqual(Logfmt.quoted("\n\r\t"), #""\n\r\t""#)
        XCTAssertEqual(Logfmt.quoted("\u{1B}\u{7F}\u{85}\u{9B}"), #""\u001b\u007f\u0085\u009b""#)
        XCTAssertEqual(Logfmt.quoted("\u{202E}\u{200B}\u{2028}\u{2029}"), #""\u202e\u200b\u2028\u2029""#)
        XCTAssertEqual(Logfmt.quoted("\u{E0041}"), #""\U000e0041""#)
    }

    func testKeysAreTheCodesOwnAndNeverCollideWithTheFixedFields() throws {
        let lines = LogfmtCapture()
        lines.logger().info("m", metadata: ["level": "fake", "msg": "fake", "we ird=\"key": "v", "": "empty"])
        let record = try XCTUnwrap(LogfmtReader.record(try XCTUnwrap(lines.lines.first)))
        XCTAssertEqual(record[field: "level"], "info")
        XCTAssertEqual(record[field: "msg"], "m")
        XCTAssertEqual(record[field: "meta.level"], "fake")
        XCTAssertEqual(record[field: "meta.msg"], "fake")
        XCTAssertEqual(record[field: "we_ird__key"], "v")
        XCTAssertEqual(record[field: "_"], "empty")
    }

    func testTheLevelFiltersAndTheTimeIsUTCWithMilliseconds() throws {
        let lines = LogfmtCapture()
        let quiet = lines.logger(level: .notice)
        quiet.info("dropped")
        quiet.error("kept", metadata: ["k": "v"])
        XCTAssertEqual(lines.lines.count, 1)
        let time = try XCTUnwrap(LogfmtReader.record(lines.lines[0])?[field: "time"])
        XCTAssertNotNil(time.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/), time)
        XCTAssertEqual(Logfmt.timestamp(timespec(tv_sec: 1_795_000_000, tv_nsec: 7_000_000)), "2026-11-18T11:06:40.007Z")
    }
}
