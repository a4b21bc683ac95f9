/// Why a credential store would not read or write its tokens.
public enum CredentialStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Others may reach the folder or file (`mode` shows how): the tokens in it may already be
    /// known to them, and new ones would be. `fix` is the command that makes it private again.
    case accessibleByOthers(path: String, mode: Int, fix: String)
    /// Another user owns the folder or file: they could read or replace what is in it.
    case ownedByAnotherUser(path: String, owner: Int)
    /// Reading, writing or locking failed.
    case failed(String)

    public var description: String {
        switch self {
        case .accessibleByOthers(let path, let mode, let fix):
            "\(path) is accessible by others (mode \(String(mode, radix: 8))); its tokens stay unused until you run `\(fix)`"
        case .ownedByAnotherUser(let path, let owner):
            "\(path) belongs to another user (uid \(owner)); remove it, or log in with your own config folder"
        case .failed(let reason):
            reason
        }
    }
}
