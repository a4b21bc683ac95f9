import CQRencode
#if canImport(Glibc)
import Glibc
#endif

/// A QR code symbol as a square matrix of modules (true = dark), encoded by libqrencode in
/// 8-bit mode with error correction level M (15 % of the symbol may be damaged). Drawing it
/// is TIL's own (`svg()`, `terminalText()`).
public struct QRCode: Sendable, Equatable {
    /// The QR version (1–40); the side is 17 + 4 × version modules.
    public let version: Int
    /// Rows of modules, top to bottom; each row left to right.
    public let modules: [[Bool]]

    /// Modules per side.
    public var size: Int { modules.count }

    /// The symbol for `text`'s UTF-8 bytes, at the smallest version that holds them.
    public init(encoding text: String) throws(QRCodeError) {
        // A NUL would end the C string early and encode less than was asked.
        guard !text.utf8.contains(0) else { throw .containsNUL }
        // libqrencode returns a malloc'd struct (nil with errno set on failure): copy the
        // matrix out, then free it with QRcode_free, exactly once.
        guard let symbol = QRcode_encodeString(text, 0, QR_ECLEVEL_M, QR_MODE_8, 1) else {
            throw errno == ERANGE ? .tooLong : .encodingFailed(errno: errno)
        }
        defer { QRcode_free(symbol) }
        let width = Int(symbol.pointee.width)
        // `data` holds width × width bytes, row-major; bit 0 of each is the module's colour.
        let data = UnsafeBufferPointer(start: symbol.pointee.data, count: width * width)
        version = Int(symbol.pointee.version)
        modules = (0..<width).map { row in (0..<width).map { column in data[row * width + column] & 1 == 1 } }
    }
}

/// Why a QR code could not be made.
public enum QRCodeError: Error, Equatable {
    /// More data than a version 40 symbol at level M holds (2,331 bytes).
    case tooLong
    /// The text contains a NUL character.
    case containsNUL
    /// libqrencode failed otherwise (out of memory, say).
    case encodingFailed(errno: Int32)
}
