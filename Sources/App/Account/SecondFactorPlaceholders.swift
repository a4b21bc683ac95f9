import Web

/// The account page's passkeys section until the passkey service lands: it says what it will
/// hold, so the page's outline is already the final one.
enum SecondFactorPlaceholders {
    static let passkeys: HTML = """
        <section aria-labelledby="passkeys-heading">
        <h2 id="passkeys-heading">Passkeys</h2>
        <p class="hint">Signing in with a passkey is not available on this server yet.</p>
        </section>
        """
}
