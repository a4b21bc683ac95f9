import Web

/// TIL's one stylesheet, served from its own path because the pages' CSP allows no inline
/// style. Small, readable, and dark-mode aware.
struct Stylesheet: RouteCollection {
    static let path = "/pages/til.css"

    static let css = """
        :root { color-scheme: light dark; --accent: #2457c5; --error: #b3261e; }
        * { box-sizing: border-box; }
        body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; background: Canvas; color: CanvasText; }
        main { max-width: 26rem; margin: 3rem auto; padding: 2rem; border: 1px solid #8884; border-radius: 12px; }
        .brand { margin: 0; font-weight: 700; letter-spacing: .04em; color: var(--accent); }
        .brand span { font-weight: 400; color: GrayText; margin-left: .4em; }
        h1 { font-size: 1.4rem; margin: .5rem 0 1rem; }
        .client { margin-top: -.5rem; color: GrayText; }
        label { display: block; margin: 1rem 0 .25rem; font-weight: 600; }
        input[type=text], input[type=password] { width: 100%; padding: .6rem; font: inherit; border: 1px solid #8888; border-radius: 6px; }
        button { margin: 1.25rem .5rem 0 0; padding: .6rem 1.2rem; font: inherit; border-radius: 6px; border: 1px solid var(--accent); background: var(--accent); color: #fff; cursor: pointer; }
        button.secondary { background: transparent; color: inherit; border-color: #8888; }
        .error { color: var(--error); border-left: 4px solid var(--error); padding: .25rem .75rem; }
        ul.scopes { padding-left: 1.2rem; }
        ul.scopes code { font-size: .9em; color: GrayText; }
        input.user-code, .user-code { font-family: ui-monospace, monospace; letter-spacing: .15em; text-transform: uppercase; }
        .hint { color: GrayText; font-size: .9em; }

        """

    func boot(routes: any RoutesBuilder) throws {
        let response = Response(status: .ok, headers: [
            "Content-Type": "text/css; charset=utf-8",
            "Cache-Control": "public, max-age=3600",
            "X-Content-Type-Options": "nosniff",
        ], body: Array(Self.css.utf8))
        routes.get("pages", "til.css") { _ in response }
    }
}
