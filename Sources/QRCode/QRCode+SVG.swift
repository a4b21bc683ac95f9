extension QRCode {
    /// The quiet zone (light border) a scanner needs: 4 modules (ISO/IEC 18004 §5.3.8).
    public static let quietZone = 4

    /// A small standalone SVG: a light background and one `<path>` of the dark modules, one
    /// user unit per module, with `crispEdges` so no anti-aliasing blurs module borders.
    /// `pixelsPerModule` sets only the displayed size. No script, no external reference.
    public func svg(pixelsPerModule: Int = 4) -> String {
        let side = size + 2 * Self.quietZone
        let pixels = side * max(1, pixelsPerModule)
        return """
            <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 \(side) \(side)" width="\(pixels)" \
            height="\(pixels)" shape-rendering="crispEdges" role="img" aria-label="QR code">\
            <rect width="\(side)" height="\(side)" fill="#fff"/><path fill="#000" d="\(darkModulesPath())"/></svg>
            """
    }

    /// One rectangle per horizontal run of dark modules, in relative path commands.
    private func darkModulesPath() -> String {
        var path = ""
        for (row, line) in modules.enumerated() {
            var column = 0
            while column < size {
                guard line[column] else { column += 1; continue }
                let start = column
                while column < size, line[column] { column += 1 }
                let run = column - start
                path += "M\(start + Self.quietZone) \(row + Self.quietZone)h\(run)v1h-\(run)z"
            }
        }
        return path
    }
}
