import Foundation
import Synchronization

/// The notes, in memory and per owner: an example keeps no database. Bounded, like every
/// input: at most `maxPerOwner` notes each, and `maxOwners` owners.
final class NoteStore: Sendable {
    static let maxPerOwner = 100
    static let maxOwners = 10_000

    private let notes = Mutex<[String: [Note]]>([:])

    func notes(of owner: String) -> [Note] {
        notes.withLock { $0[owner] ?? [] }
    }

    /// Adds a note for `owner`; nil when the owner, or the store, is full.
    func add(_ text: String, for owner: String) -> Note? {
        notes.withLock { notes in
            let mine = notes[owner] ?? []
            guard mine.count < Self.maxPerOwner, notes[owner] != nil || notes.count < Self.maxOwners else { return nil }
            let note = Note(text: text)
            notes[owner] = mine + [note]
            return note
        }
    }
}
