extension WorkerPool {
    /// How busy a pool is, as a job asking to join it sees it: what admission control
    /// (`BcryptHasher.Admission`) decides on.
    public struct Load: Sendable, Equatable {
        /// Jobs waiting for a thread, not counting the running ones.
        public var queued: Int
        /// Jobs on a thread now.
        public var running: Int
        public var threadCount: Int
        /// Mean wall time of the recent jobs that ran (`RecentMean`); nil before the first.
        public var meanJobTime: Duration?

        public init(queued: Int, running: Int, threadCount: Int, meanJobTime: Duration?) {
            (self.queued, self.running, self.threadCount, self.meanJobTime) = (queued, running, threadCount, meanJobTime)
        }

        /// Whether a job joining now would have to wait for a thread.
        public var mustWait: Bool { queued + running >= threadCount }

        /// How long a job joining now would wait before it starts: queue length × recent mean
        /// job time ÷ threads. Zero before any job has run (nothing to estimate from).
        public var estimatedWait: Duration {
            guard let meanJobTime else { return .zero }
            return meanJobTime * queued / threadCount
        }
    }
}

/// An exponentially weighted mean of job times: each new time counts 1/8, so the estimate
/// follows a change of load (busy neighbours, another cost) within a dozen jobs.
struct RecentMean {
    private(set) var value: Duration?

    mutating func add(_ sample: Duration) {
        guard let value else { return self.value = sample }
        self.value = value + (sample - value) / 8
    }
}
