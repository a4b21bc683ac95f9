import FoundationEssentials
#if canImport(FoundationXML)
import FoundationXML
#else
import Foundation
#endif
import QRCode
import XCTest

final class QRCodeSVGTests: XCTestCase {
    private let enrolmentURI = "otpauth://totp/TIL:alice?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ&issuer=TIL"

    /// Well-formed XML: one `svg` root with a background `rect` and one `path`, nothing else.
    func testWellFormedAndScriptFree() throws {
        let code = try QRCode(encoding: enrolmentURI)
        let svg = code.svg()
        let collector = ElementCollector()
        let parser = XMLParser(data: Data(svg.utf8))
        parser.delegate = collector
        XCTAssertTrue(parser.parse(), "\(String(describing: parser.parserError))")
        XCTAssertEqual(collector.elements.map(\.name), ["svg", "rect", "path"])
        let root = collector.elements[0].attributes
        let side = code.size + 2 * QRCode.quietZone
        XCTAssertEqual(root["xmlns"], "http://www.w3.org/2000/svg")
        XCTAssertEqual(root["viewBox"], "0 0 \(side) \(side)")
        XCTAssertEqual(root["shape-rendering"], "crispEdges")
        let attributeNames = collector.elements.flatMap(\.attributes.keys)
        XCTAssertFalse(attributeNames.contains { $0.lowercased().hasPrefix("on") || $0.contains("href") })
        XCTAssertFalse(svg.lowercased().contains("script"))
        XCTAssertLessThan(svg.utf8.count, 12_000, "small enough to inline in JSON")
    }

    /// Drawing the path's rectangles gives back exactly the dark modules, offset by the quiet zone.
    func testPathDrawsTheDarkModules() throws {
        let code = try QRCode(encoding: enrolmentURI)
        let collector = ElementCollector()
        let parser = XMLParser(data: Data(code.svg().utf8))
        parser.delegate = collector
        XCTAssertTrue(parser.parse())
        let path = try XCTUnwrap(collector.elements.last?.attributes["d"])
        var drawn = Set<[Int]>()
        for command in path.split(separator: "M") {
            // "x yhNv1h-Nz"
            let scanned = command.split(whereSeparator: { " hvz".contains($0) }).compactMap { Int($0) }
            XCTAssertEqual(scanned.count, 5, String(command))
            let (x, y, run) = (scanned[0], scanned[1], scanned[2])
            XCTAssertEqual(scanned[3], 1)
            XCTAssertEqual(scanned[4], -run)
            for column in x..<(x + run) { XCTAssertTrue(drawn.insert([y, column]).inserted, "drawn twice") }
        }
        var dark = Set<[Int]>()
        for (row, line) in code.modules.enumerated() {
            for (column, module) in line.enumerated() where module {
                dark.insert([row + QRCode.quietZone, column + QRCode.quietZone])
            }
        }
        XCTAssertEqual(drawn, dark)
    }
}

/// The elements of a parsed document, in order, with their attributes.
private final class ElementCollector: NSObject, XMLParserDelegate {
    var elements: [(name: String, attributes: [String: String])] = []

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        elements.append((elementName, attributes))
    }
}
