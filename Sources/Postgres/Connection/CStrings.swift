import Glibc

/// Swift strings as the C string arrays libpq takes (a nil stays NULL: SQL NULL for a bound
/// parameter, the terminator of a keyword list); free them after the call.
struct CStrings {
    let pointers: [UnsafePointer<CChar>?]
    var count: Int32 { Int32(pointers.count) }

    init(_ strings: [String?]) {
        pointers = strings.map { string in string.flatMap { strdup($0) }.map { UnsafePointer($0) } }
    }

    /// A statement's parameters, in their text form.
    init(_ binds: [PostgresBind]) {
        self.init(binds.map(\.text))
    }

    func free() {
        pointers.forEach { Glibc.free(UnsafeMutablePointer(mutating: $0)) }
    }
}
