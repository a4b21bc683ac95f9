import Foundation
import TILClient
import XCTest

/// `client.passkeys` and `til passkeys`: listing, renaming and removing the passkeys a browser
/// registered, against a live server.
final class PasskeysTests: XCTestCase {
    func testListRenameAndRemoveThroughTheClient() async throws {
        try await LiveServer.run { server in
            let (user, password) = try await server.makeUser()
            let til = server.client()
            try await til.login(username: user.username, password: password)
            let none = try await til.passkeys.list()
            XCTAssertEqual(none, [])

            let registered = try await PasskeyHolder.register(on: til, name: "Laptop")
            let listed = try await til.passkeys.list()
            XCTAssertEqual(listed, [registered])
            XCTAssertEqual(registered.name, "Laptop")
            XCTAssertNil(registered.lastUsedAt)
            XCTAssertFalse(registered.backedUp)
            let counted = try await til.mfa.status().passkeys
            XCTAssertEqual(counted, 1)

            // NFD in, NFC stored and answered: "Téléphone de Zoë" is one name however it was typed.
            let renamed = try await til.passkeys.rename(registered.id, to: "  Te\u{301}le\u{301}phone de Zoe\u{308} ")
            XCTAssertEqual(renamed.name, "Téléphone de Zoë")
            XCTAssertEqual(renamed.name.unicodeScalars.count, 16)
            await assertServerError(400, "'name' must not contain control or invisible formatting characters.") {
                try await til.passkeys.rename(registered.id, to: "Lap\u{200B}top")
            }
            await assertServerError(400, "'name' must not be empty.") { try await til.passkeys.rename(registered.id, to: " ") }

            try await til.passkeys.remove(registered.id)
            let gone = try await til.passkeys.list()
            XCTAssertEqual(gone, [])
            await assertServerError(404, "No passkey with that id.") { try await til.passkeys.remove(registered.id) }
            await assertServerError(404, "No passkey with that id.") { try await til.passkeys.rename(registered.id, to: "Again") }
        }
    }

    func testAPasskeyIsOfferedAsASecondFactorAfterThePassword() async throws {
        try await LiveServer.run { server in
            let holder = try await server.totpUser()
            let til = try await server.client(loggedInAs: holder)
            try await PasskeyHolder.register(on: til, name: "Key")
            let challenge = try await secondFactorChallenge { try await server.client().login(username: holder.user.username, password: holder.password) }
            XCTAssertEqual(challenge.methods, ["totp", "recovery_code", "passkey"])
            XCTAssertTrue(challenge.offers("passkey"))
        }
    }

    func testTheCommandLineListsRenamesAndRemoves() async throws {
        try await LiveServer.run { server in
            let (til, user, password) = try await server.loggedInCommandLine()
            defer { til.removeConfig() }
            let client = server.client()
            try await client.login(username: user.username, password: password)
            let key = try await PasskeyHolder.register(on: client, name: "Laptop")
            let id = key.id.uuidString

            let table = try await til.run("passkeys")
            XCTAssertEqual(table.stdout, """
                ID                                    NAME    CREATED               LAST USED  BACKED UP
                \(id)  Laptop  \(WireDate.text(of: key.createdAt))  never      no

                """, table.stderr)
            let renamed = try await til.run("passkeys", "rename", id, "Work laptop")
            XCTAssertEqual(renamed.stdout, "Renamed passkey \(id) to Work laptop.\n", renamed.stderr)
            let listed = try await til.run("passkeys", "list", "--json").json([PasskeySummary].self)
            XCTAssertEqual(listed.map(\.name), ["Work laptop"])

            assertFails(try await til.run("passkeys", "remove", "not-an-id"), status: 1,
                        stderrPrefix: "til: The value 'not-an-id' is invalid for '<id>': 'not-an-id' is not an id (a UUID).")
            assertFails(try await til.run("passkeys", "rename", id, "\u{202E}evil"), status: 4,
                        stderrPrefix: "til: 'name' must not contain control or invisible formatting characters. (400)")
            let removed = try await til.run("passkeys", "remove", id)
            XCTAssertEqual(removed.stdout, "Removed passkey \(id).\n", removed.stderr)
            assertFails(try await til.run("passkeys", "remove", id), status: 3, stderrPrefix: "til: No passkey with that id. (404)")
            let empty = try await til.run("passkeys", "--json").json([PasskeySummary].self)
            XCTAssertEqual(empty, [])
        }
    }
}
