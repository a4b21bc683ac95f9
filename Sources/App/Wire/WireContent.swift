public import Web

// The wire types (TILWire) as the server sends them. The list endpoints' models write their
// own JSON for speed; each must say exactly what its Codable encoding says (ModelJSONTests).

extension Acronym: Content {
    public func writeJSON(to json: JSONSink) {
        json.object { json in
            json.field("id", id)
            json.field("short", short)
            json.field("long", long)
            json.field("user", object: { $0.field("id", user.id) })
        }
    }
}

extension Category: Content {
    public func writeJSON(to json: JSONSink) {
        json.object { json in
            json.field("id", id)
            json.field("name", name)
        }
    }
}

extension PublicUser: Content {
    public func writeJSON(to json: JSONSink) {
        json.object { json in
            json.field("id", id)
            json.field("name", name)
            json.field("username", username)
        }
    }
}

extension Token: Content {}

extension SessionInfo: Content {}

extension MFAStatus: Content {}

extension AccountProfile: Content {}

extension PersonalAccessToken: Content {}

extension NewPersonalAccessToken: Content {}
extension PasskeySummary: Content {}
