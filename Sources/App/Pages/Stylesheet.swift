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
        input[type=text], input[type=password], input[type=email] { width: 100%; padding: .6rem; font: inherit; border: 1px solid #8888; border-radius: 6px; }
        button { margin: 1.25rem .5rem 0 0; padding: .6rem 1.2rem; font: inherit; border-radius: 6px; border: 1px solid var(--accent); background: var(--accent); color: #fff; cursor: pointer; }
        button.secondary { background: transparent; color: inherit; border-color: #8888; }
        .error { color: var(--error); border-left: 4px solid var(--error); padding: .25rem .75rem; }
        ul.scopes { padding-left: 1.2rem; }
        ul.scopes code { font-size: .9em; color: GrayText; }
        input.user-code, .user-code { font-family: ui-monospace, monospace; letter-spacing: .15em; text-transform: uppercase; }
        .hint { color: GrayText; font-size: .9em; }
        main.wide { max-width: 44rem; }
        h2 { font-size: 1.1rem; margin: 2rem 0 .5rem; padding-top: 1.25rem; border-top: 1px solid #8884; }
        :focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
        .account-bar { display: flex; align-items: center; justify-content: space-between; gap: 1rem; flex-wrap: wrap; }
        .account-bar p { margin: 0; }
        form.inline { display: inline; margin: 0; }
        form.inline button, .item button { margin: 0; padding: .35rem .9rem; white-space: nowrap; }
        li.item > form { flex-shrink: 0; }
        button.danger { background: transparent; color: var(--error); border-color: var(--error); }
        ul.items { list-style: none; margin: 0; padding: 0; }
        li.item { display: flex; justify-content: space-between; align-items: flex-start; gap: 1rem; padding: .75rem 0; border-bottom: 1px solid #8883; }
        li.item:last-child { border-bottom: 0; }
        .item-text { min-width: 0; }
        .item-title { margin: 0; font-weight: 600; overflow-wrap: anywhere; }
        .meta, .agent { margin: .15rem 0 0; color: GrayText; font-size: .9em; }
        .agent { font-size: .8em; overflow-wrap: anywhere; }
        .badge { display: inline-block; margin-left: .4em; padding: 0 .5em; border-radius: 999px; font-size: .75em; font-weight: 600; background: var(--accent); color: #fff; vertical-align: middle; }
        .notice { border-left: 4px solid var(--accent); padding: .25rem .75rem; }
        .item ul.scopes { margin: .25rem 0 0; font-size: .9em; }
        a { color: var(--accent); }
        a.button { display: inline-block; margin: 1.25rem .5rem 0 0; padding: .6rem 1.2rem; border-radius: 6px; border: 1px solid var(--accent); background: var(--accent); color: #fff; text-decoration: none; }
        a.button.secondary { background: transparent; color: inherit; border-color: #8888; }
        input.otp { font-family: ui-monospace, monospace; letter-spacing: .1em; }
        input[readonly] { background: transparent; border-style: dashed; color: GrayText; }
        details.alternative { margin-top: 1.25rem; }
        details.alternative summary { cursor: pointer; color: var(--accent); }
        .badge.on { background: #1b7f3b; margin: 0 .4em 0 0; }
        .badge.off { background: #8a5a00; margin: 0 .4em 0 0; }
        ol.steps li { margin-bottom: .75rem; }
        figure.qr { margin: .5rem 0; }
        figure.qr svg { display: block; background: #fff; border-radius: 6px; }
        .secret code { font-size: 1.05em; letter-spacing: .05em; }
        ol.codes { font-family: ui-monospace, monospace; padding-left: 2rem; white-space: nowrap; }
        ol.codes li { margin-bottom: .35rem; }
        fieldset { margin: 1rem 0 0; padding: .25rem .75rem .5rem; border: 1px solid #8884; border-radius: 6px; }
        legend { font-weight: 600; padding: 0 .25rem; }
        label.choice { display: flex; align-items: center; gap: .5rem; margin: .35rem 0; font-weight: 400; }
        select { display: block; padding: .5rem; font: inherit; border: 1px solid #8888; border-radius: 6px; }
        input.token { font-family: ui-monospace, monospace; font-size: .9em; }

        """

    func boot(routes: any RoutesBuilder) throws {
        let response = StaticAsset.response(Self.css, contentType: "text/css; charset=utf-8")
        routes.get("pages", "til.css") { _ in response }
    }
}
