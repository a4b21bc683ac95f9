import Glibc

/// A statement's parameters as C strings for libpq (NULL for SQL NULL); free them after use.
struct BoundParameters {
    let pointers: [UnsafePointer<CChar>?]
    var count: Int32 { Int32(pointers.count) }

    init(_ binds: [PostgresBind]) {
        pointers = binds.map { bind in bind.text.flatMap { strdup($0) }.map { UnsafePointer($0) } }
    }

    func free() {
        pointers.forEach { Glibc.free(UnsafeMutablePointer(mutating: $0)) }
    }
}
