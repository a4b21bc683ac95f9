/// Runs `body` for `seconds` on the calling thread; the calls per second.
func repeatFor(seconds: Double, _ body: () throws -> Void) rethrows -> Double {
    let clock = ContinuousClock()
    let start = clock.now
    let deadline = start + .milliseconds(Int(seconds * 1000))
    var count = 0
    while clock.now < deadline {
        try body()
        count += 1
    }
    return Double(count) / ((clock.now - start) / .seconds(1))
}

/// The time of one call at `perSecond` calls a second, in whole microseconds.
func microseconds(_ perSecond: Double) -> Int { Int((1_000_000 / perSecond).rounded()) }
