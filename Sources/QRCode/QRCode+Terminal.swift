extension QRCode {
    /// The symbol as text for a terminal, two module rows per line with the half blocks
    /// ▀ ▄ █, quiet zone included. Most terminals draw light text on a dark background, so by
    /// default the blocks draw the light modules (`darkOnLight: false`), which makes the
    /// dark modules the background colour, as a scanner expects; pass true for light themes.
    public func terminalText(darkOnLight: Bool = false) -> String {
        let side = size + 2 * Self.quietZone
        // Whether the block character covers the module at (row, column) of the padded symbol.
        func inked(_ row: Int, _ column: Int) -> Bool {
            let r = row - Self.quietZone, c = column - Self.quietZone
            let dark = (0..<size).contains(r) && (0..<size).contains(c) && modules[r][c]
            return dark == darkOnLight
        }
        var lines: [String] = []
        for top in stride(from: 0, to: side, by: 2) {
            var line = ""
            for column in 0..<side {
                // A last odd row pairs with a row of background.
                let upper = inked(top, column)
                let lower = top + 1 < side ? inked(top + 1, column) : false
                let block: Character = switch (upper, lower) {
                case (true, true): "█"
                case (true, false): "▀"
                case (false, true): "▄"
                case (false, false): " "
                }
                line.append(block)
            }
            lines.append(line)
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
