/// A first-in, first-out queue with amortised O(1) push and pop (two stacks), for
/// `WorkerPool`'s jobs: `Array.removeFirst()` would be O(n) with a long backlog of logins.
struct FIFO<Element> {
    private var inbox: [Element] = []
    private var outbox: [Element] = []

    var count: Int { inbox.count + outbox.count }

    mutating func push(_ element: Element) {
        inbox.append(element)
    }

    mutating func pop() -> Element? {
        if outbox.isEmpty {
            outbox = inbox.reversed()
            inbox.removeAll(keepingCapacity: true)
        }
        return outbox.popLast()
    }
}
