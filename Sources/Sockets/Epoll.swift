import CLinux
import Glibc

/// One epoll instance. Descriptors are registered edge-triggered for reading and writing
/// once, so a connection never pays an `epoll_ctl` per request.
struct Epoll: ~Copyable {
    let fd: Int32
    private var events: UnsafeMutableBufferPointer<epoll_event>

    init(capacity: Int = 256) throws {
        fd = epoll_create1(Int32(EPOLL_CLOEXEC))
        guard fd >= 0 else { throw SystemError("epoll_create1") }
        events = .allocate(capacity: capacity)
    }

    deinit {
        events.deallocate()
        close(fd)
    }

    func add(_ descriptor: Int32, _ interest: UInt32) throws {
        var event = epoll_event()
        event.events = interest
        event.data.fd = descriptor
        guard epoll_ctl(fd, EPOLL_CTL_ADD, descriptor, &event) == 0 else { throw SystemError("epoll_ctl(ADD)") }
    }

    /// Changes the interest of a registered descriptor; re-adds it when the kernel already
    /// dropped it (a closed descriptor whose number was reused).
    func modify(_ descriptor: Int32, _ interest: UInt32) throws {
        var event = epoll_event()
        event.events = interest
        event.data.fd = descriptor
        if epoll_ctl(fd, EPOLL_CTL_MOD, descriptor, &event) == 0 { return }
        guard errno == ENOENT else { throw SystemError("epoll_ctl(MOD)") }
        try add(descriptor, interest)
    }

    func remove(_ descriptor: Int32) {
        _ = epoll_ctl(fd, EPOLL_CTL_DEL, descriptor, nil)
    }

    /// Waits up to `timeoutMilliseconds` (-1: forever) and calls `body` per ready descriptor.
    func wait(timeoutMilliseconds: Int32, _ body: (Int32, Readiness) -> Void) {
        let count = epoll_wait(fd, events.baseAddress, Int32(events.count), timeoutMilliseconds)
        guard count > 0 else { return }
        for index in 0..<Int(count) {
            body(events[index].data.fd, Readiness(rawValue: events[index].events))
        }
    }
}
