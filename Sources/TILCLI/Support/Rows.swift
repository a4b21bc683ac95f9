import Foundation
import TILClient

// How each wire type prints as a row: the columns a person reads, ids in full so they can be
// pasted into the next command.

extension Acronym: TableRow {
    static var headers: [String] { ["ID", "SHORT", "LONG", "USER"] }
    var cells: [String] { [id.uuidString, short, long, user.id.uuidString] }
}

extension TILClient.Category: TableRow {
    static var headers: [String] { ["ID", "NAME"] }
    var cells: [String] { [id.uuidString, name] }
}

extension PublicUser: TableRow {
    static var headers: [String] { ["ID", "NAME", "USERNAME"] }
    var cells: [String] { [id.uuidString, name, username] }
}

extension SessionInfo: TableRow {
    static var headers: [String] { ["ID", "CREATED", "LAST USED", "LOGIN ENDS", "SCOPES", "THIS", "USER AGENT"] }
    var cells: [String] {
        [id.uuidString, WireDate.text(of: createdAt), WireDate.text(of: lastUsedAt), WireDate.text(of: refreshExpiresAt),
         scopes.map(\.rawValue).joined(separator: " "), current ? "*" : "", userAgent ?? ""]
    }
}

extension MFAStatus: TableRow {
    static var headers: [String] { ["TOTP", "RECOVERY CODES LEFT", "PASSKEYS"] }
    var cells: [String] { [totp ? "on" : "off", String(recoveryCodesRemaining), String(passkeys)] }
}

extension PasskeySummary: TableRow {
    static var headers: [String] { ["ID", "NAME", "CREATED", "LAST USED", "BACKED UP"] }
    var cells: [String] {
        [id.uuidString, name, WireDate.text(of: createdAt), lastUsedAt.map(WireDate.text(of:)) ?? "never", backedUp ? "yes" : "no"]
    }
}

extension PersonalAccessToken: TableRow {
    static var headers: [String] { ["ID", "NAME", "SCOPES", "CREATED", "EXPIRES", "LAST USED", "FROM"] }
    var cells: [String] {
        [id.uuidString, name, scopes.map(\.rawValue).joined(separator: " "), WireDate.text(of: createdAt), WireDate.text(of: expiresAt),
         lastUsedAt.map(WireDate.text(of:)) ?? "never", lastUsedFrom ?? ""]
    }
}
