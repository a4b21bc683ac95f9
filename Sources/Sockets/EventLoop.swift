import CLinux
import Glibc
import Synchronization
import Threads

/// One I/O thread: an epoll loop that is also a Swift `TaskExecutor`.
///
/// Request handlers are started with this loop as their executor preference, so a handler
/// runs on the thread that read its request and its response is written there too, with no
/// thread hop (the shape of SwiftNIO's event loops, without NIO). Blocking work (libpq,
/// bcrypt) is sent to other threads by the code that does it and resumes here.
///
/// Thread-safety: `enqueue` and `execute` may be called from any thread and go through the
/// `Mutex`-protected `remote` queue plus an eventfd wake-up. Everything else (`handlers`, `locals`,
/// `local`, the epoll set) is confined to the loop thread; the methods that touch it check
/// `inEventLoop` with a precondition. That confinement is why `@unchecked Sendable` is sound.
public final class EventLoop: TaskExecutor, @unchecked Sendable {
    private struct Remote {
        var jobs: [UnownedJob] = []
        var work: [@Sendable () -> Void] = []
        var sleeping = false
        var stopping = false
        var exited = false
    }

    public let index: Int
    private let remote = Mutex(Remote())
    private let wakeFD: Int32
    private var epoll: Epoll
    /// The loop thread's id, set once by the thread itself; atomic because other threads read
    /// it (through `inEventLoop`) while the loop starts.
    private let threadID = Atomic<UInt>(0)
    private var localJobs: [UnownedJob] = []
    private var handlers: [Int32: any EventHandler] = [:]
    private var timers = LoopTimers()
    /// Per-loop state of libraries (a database pool), confined to the loop like `handlers`.
    private var locals: [LocalKey: AnyObject] = [:]
    private var lastTick = ContinuousClock.now

    public init(index: Int) throws {
        self.index = index
        epoll = try Epoll()
        wakeFD = eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC))
        guard wakeFD >= 0 else { throw SystemError("eventfd") }
        try epoll.add(wakeFD, clinux_EPOLLIN)
    }

    deinit { close(wakeFD) }

    /// True on this loop's own thread.
    public var inEventLoop: Bool { threadID.load(ordering: .acquiring) == UInt(pthread_self()) }

    /// The loop whose thread is running this code, if any: lets a library (the database
    /// client) keep its per-loop state beside the loop that serves the request.
    public static var current: EventLoop? {
        guard let pointer = pthread_getspecific(currentLoopKey) else { return nil }
        return Unmanaged<EventLoop>.fromOpaque(pointer).takeUnretainedValue()
    }

    // MARK: Executor

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        if inEventLoop {
            localJobs.append(job)
        } else {
            let wake = remote.withLock { state -> Bool in
                state.jobs.append(job)
                defer { state.sleeping = false }
                return state.sleeping
            }
            if wake { wakeUp() }
        }
    }

    /// Runs `work` on the loop thread: inline when already there, otherwise soon (work queued
    /// before the loop exits still runs). False, and `work` never runs, once the loop exited.
    @discardableResult
    public func execute(_ work: @escaping @Sendable () -> Void) -> Bool {
        if inEventLoop {
            work()
            return true
        }
        let (accepted, wake) = remote.withLock { state -> (Bool, Bool) in
            guard !state.exited else { return (false, false) }
            state.work.append(work)
            defer { state.sleeping = false }
            return (true, state.sleeping)
        }
        if wake { wakeUp() }
        return accepted
    }

    // MARK: Descriptors (loop thread only)

    /// Registers `fd` edge-triggered for reading, writing and hang-ups.
    public func register(_ fd: Int32, handler: any EventHandler) throws {
        precondition(inEventLoop)
        try epoll.add(fd, clinux_EPOLLIN | clinux_EPOLLOUT | clinux_EPOLLRDHUP | clinux_EPOLLET)
        handlers[fd] = handler
    }

    /// Registers a listening socket, level-triggered for reading.
    public func registerListener(_ fd: Int32, handler: any EventHandler) throws {
        precondition(inEventLoop)
        try epoll.add(fd, clinux_EPOLLIN)
        handlers[fd] = handler
    }

    /// Registers `fd` level-triggered with the given interest (libpq's sockets: libpq reads
    /// only what it needs, so an edge could be lost; level triggering cannot lose one).
    public func register(_ fd: Int32, readable: Bool, writable: Bool, handler: any EventHandler) throws {
        precondition(inEventLoop)
        try epoll.add(fd, Self.interest(readable: readable, writable: writable))
        handlers[fd] = handler
    }

    /// Changes the interest of a descriptor registered with `register(_:readable:writable:handler:)`.
    public func setInterest(_ fd: Int32, readable: Bool, writable: Bool) throws {
        precondition(inEventLoop)
        try epoll.modify(fd, Self.interest(readable: readable, writable: writable))
    }

    private static func interest(readable: Bool, writable: Bool) -> UInt32 {
        clinux_EPOLLRDHUP | (readable ? clinux_EPOLLIN : 0) | (writable ? clinux_EPOLLOUT : 0)
    }

    /// Names a library's value in every loop's storage; unique for the process's life (an
    /// object's address could be reused once the object is gone, a `LocalKey` never is).
    public struct LocalKey: Hashable, Sendable {
        private static let next = Atomic<Int>(0)
        private let id: Int
        public init() { id = Self.next.add(1, ordering: .relaxed).newValue }
    }

    /// The value this loop keeps for `key`, made by `create` the first time (loop thread only):
    /// a library's per-loop state lives here and needs no lock of its own.
    public func local<Value: AnyObject>(_ key: LocalKey, create: () throws -> Value) rethrows -> Value {
        precondition(inEventLoop)
        if let value = locals[key] as? Value { return value }
        let value = try create()
        locals[key] = value
        return value
    }

    /// Removes and returns the value kept for `key`, if any (loop thread only).
    public func removeLocal<Value: AnyObject>(_ key: LocalKey, as type: Value.Type) -> Value? {
        precondition(inEventLoop)
        return locals.removeValue(forKey: key) as? Value
    }

    /// Runs `work` on the loop thread once `deadline` has passed (millisecond precision).
    public func schedule(at deadline: ContinuousClock.Instant, _ work: @escaping () -> Void) {
        precondition(inEventLoop)
        timers.add(at: deadline, work)
    }

    /// Stops watching `fd`; the caller closes it afterwards.
    public func deregister(_ fd: Int32) {
        precondition(inEventLoop)
        epoll.remove(fd)
        handlers[fd] = nil
    }

    /// Calls `body` for every registered handler (a snapshot: `body` may deregister).
    public func forEachHandler(_ body: (any EventHandler) -> Void) {
        precondition(inEventLoop)
        for handler in Array(handlers.values) { body(handler) }
    }

    // MARK: Running

    /// Runs the loop on a new thread (named `name`, default "til-loop-<index>") until
    /// `stop()`; `onExit` runs on that thread at the end.
    public func start(name: String? = nil, onExit: @escaping @Sendable () -> Void) throws {
        try OSThread.detach(name: name ?? "til-loop-\(index)") { [self] in
            threadID.store(UInt(pthread_self()), ordering: .releasing)
            pthread_setspecific(currentLoopKey, Unmanaged.passUnretained(self).toOpaque())
            runLoop()
            onExit()
        }
    }

    /// Asks the loop to finish its current turn and exit.
    public func stop() {
        let wake = remote.withLock { state -> Bool in
            state.stopping = true
            return true
        }
        if wake { wakeUp() }
    }

    private func runLoop() {
        while true {
            runPendingWork()
            let (stopping, timeout) = remote.withLock { state -> (Bool, Int32) in
                let idle = state.jobs.isEmpty && state.work.isEmpty
                state.sleeping = idle
                return (state.stopping, idle ? 1000 : 0)
            }
            if stopping { break }
            let wait = localJobs.isEmpty ? timers.waitMilliseconds(now: .now, limit: timeout) : 0
            epoll.wait(timeoutMilliseconds: wait) { fd, readiness in
                if fd == wakeFD {
                    var value: UInt64 = 0
                    _ = read(wakeFD, &value, 8)
                } else {
                    handlers[fd]?.handle(readiness)
                }
            }
            remote.withLock { $0.sleeping = false }
            let now = ContinuousClock.now
            for work in timers.takeDue(now: now) { work() }
            if now - lastTick >= .seconds(1) {
                lastTick = now
                for handler in Array(handlers.values) { handler.tick(now: now) }
            }
        }
        let lastWork = remote.withLock { state in
            state.exited = true
            defer { state.work = [] }
            return state.work
        }
        for work in lastWork { work() }
        for handler in Array(handlers.values) { handler.loopStopping() }
        handlers.removeAll()
        timers.removeAll()
        locals.removeAll()
    }

    /// Runs jobs and work items queued so far (new ones queued meanwhile wait for the next turn,
    /// so I/O is never starved).
    private func runPendingWork() {
        let (jobs, work) = remote.withLock { state in
            defer { state.jobs.removeAll(keepingCapacity: true); state.work.removeAll(keepingCapacity: true) }
            return (state.jobs, state.work)
        }
        for item in work { item() }
        for job in jobs { job.runSynchronously(on: asUnownedTaskExecutor()) }
        var batch = localJobs
        localJobs.removeAll(keepingCapacity: true)
        while !batch.isEmpty {
            for job in batch { job.runSynchronously(on: asUnownedTaskExecutor()) }
            batch = localJobs
            localJobs.removeAll(keepingCapacity: true)
            if batch.count > 4096 { break }
        }
        localJobs.append(contentsOf: batch)
    }

    private func wakeUp() {
        var one: UInt64 = 1
        _ = write(wakeFD, &one, 8)
    }
}

/// The thread-local slot holding each loop thread's own `EventLoop` (unretained: the thread's
/// closure holds the loop for as long as the thread runs).
private let currentLoopKey: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key, nil)
    return key
}()
