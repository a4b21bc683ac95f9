import Web

/// `GET /assets/passkeys.js`: the one script of TIL's pages, first-party and small, loaded
/// with `<script src defer>` under CSP `script-src 'self'` (never inline). It only un-hides
/// and drives the passkey buttons; every page works without it. It calls the page endpoints
/// (`PasskeyPagesController`) with the page's `<meta name="csrf-token">` as `X-CSRF-Token`,
/// and follows the `next` they answer.
///
/// Elements it looks for: `#passkey-sign-in` (the sign-in page; the username field's value,
/// if any, narrows the choice), `#passkey-second-factor` with `data-mfa-token` (the code
/// step), and the form `#passkey-add` with an input `name` (the account page). An answer with
/// `reauthRequired` and `next` (a sign-in older than `REAUTH_WINDOW`) sends the browser there.
struct PasskeysScriptFile: RouteCollection {
    static let path = "/assets/passkeys.js"

    func boot(routes: any RoutesBuilder) throws {
        let response = StaticAsset.response(Self.source, contentType: "text/javascript; charset=utf-8")
        routes.get("assets", "passkeys.js") { _ in response }
    }

    static let source = #"""
        // TIL's passkeys (WebAuthn): the one script of TIL's pages. Served from TIL's origin.
        "use strict";
        (() => {
          if (!window.PublicKeyCredential || !navigator.credentials) return;
          const csrf = document.querySelector('meta[name="csrf-token"]')?.content ?? "";
          const bytes = (text) => Uint8Array.from(atob(text.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));
          const text = (buffer) => btoa(String.fromCharCode(...new Uint8Array(buffer)))
            .replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
          const descriptors = (list) => (list ?? []).map((d) => ({ ...d, id: bytes(d.id) }));
          const creation = (o) => PublicKeyCredential.parseCreationOptionsFromJSON?.(o)
            ?? { ...o, challenge: bytes(o.challenge), user: { ...o.user, id: bytes(o.user.id) }, excludeCredentials: descriptors(o.excludeCredentials) };
          const request = (o) => PublicKeyCredential.parseRequestOptionsFromJSON?.(o)
            ?? { ...o, challenge: bytes(o.challenge), allowCredentials: descriptors(o.allowCredentials) };
          const json = (credential) => {
            if (typeof credential.toJSON === "function") return credential.toJSON();
            const r = credential.response, out = { clientDataJSON: text(r.clientDataJSON) };
            if (r.attestationObject) {
              out.attestationObject = text(r.attestationObject);
              out.transports = r.getTransports?.() ?? [];
            } else {
              Object.assign(out, { authenticatorData: text(r.authenticatorData), signature: text(r.signature) });
              if (r.userHandle) out.userHandle = text(r.userHandle);
            }
            return { id: credential.id, rawId: text(credential.rawId), type: credential.type, response: out,
              authenticatorAttachment: credential.authenticatorAttachment ?? null, clientExtensionResults: {} };
          };
          async function post(url, body) {
            const response = await fetch(url, {
              method: "POST", credentials: "same-origin",
              headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf }, body: JSON.stringify(body),
            });
            const answer = await response.json().catch(() => ({}));
            // A change that needs a recent sign-in: to the fresh sign-in, which comes back.
            if (answer.reauthRequired && answer.next) window.location.assign(answer.next);
            if (!response.ok) throw new Error(answer.reason ?? `The server answered ${response.status}.`);
            return answer;
          }
          function report(element, error) {
            const message = error.name === "NotAllowedError" ? "The passkey prompt was closed or timed out." : error.message;
            let box = element.parentElement.querySelector(".passkey-error");
            if (!box) {
              box = document.createElement("p");
              box.className = "error passkey-error";
              box.setAttribute("role", "alert");
              element.parentElement.append(box);
            }
            box.textContent = message;
          }
          const go = (element, answer) => window.location.assign(answer.next ?? element.dataset.next ?? window.location.href);
          function signInWith(button, extra) {
            button.hidden = false;
            button.addEventListener("click", async () => {
              button.disabled = true;
              try {
                const username = document.querySelector('input[name="username"]')?.value.trim();
                const returnTo = document.querySelector('input[name="return_to"]')?.value || undefined;
                const options = await post("/login/passkey/options", extra ?? (username ? { username } : {}));
                const credential = await navigator.credentials.get({ publicKey: request(options) });
                go(button, await post("/login/passkey", { ...extra, credential: json(credential), returnTo }));
              } catch (error) {
                report(button, error);
              } finally {
                button.disabled = false;
              }
            });
          }
          const signIn = document.getElementById("passkey-sign-in");
          if (signIn) signInWith(signIn);
          const second = document.getElementById("passkey-second-factor");
          if (second) signInWith(second, { mfaToken: second.dataset.mfaToken });
          const add = document.getElementById("passkey-add");
          if (add) {
            add.hidden = false;
            add.addEventListener("submit", async (event) => {
              event.preventDefault();
              const submit = add.querySelector('button, input[type="submit"]');
              if (submit) submit.disabled = true;
              try {
                const options = await post("/account/passkeys/options", {});
                const credential = await navigator.credentials.create({ publicKey: creation(options) });
                const name = add.querySelector('input[name="name"]').value;
                go(add, await post("/account/passkeys", { name, credential: json(credential) }));
              } catch (error) {
                report(submit ?? add, error);
              } finally {
                if (submit) submit.disabled = false;
              }
            });
          }
        })();

        """#
}
