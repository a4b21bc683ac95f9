"""A person at TIL's login and consent pages, played by `requests`: reads each page's forms
as a browser would (action, hidden fields, submit buttons) and posts them back, cookies kept.
The browser proof does the same in Chromium; this one lets authlib's proof run without it."""

import html.parser
import urllib.parse

from proof import check, check_status


class Form:
    def __init__(self, action, method):
        self.action = action
        self.method = method.lower()
        self.fields = {}      # every named input with its value (hidden ones carry the request)
        self.buttons = []     # (name, value) of each named submit button

    def values(self, **filled):
        return {**self.fields, **filled}


class _FormReader(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.forms = []

    def handle_starttag(self, tag, attrs):
        attrs = {name: value or "" for name, value in attrs}
        if tag == "form":
            self.forms.append(Form(attrs.get("action", ""), attrs.get("method", "get")))
        elif not self.forms or "name" not in attrs:
            return
        elif tag == "button" or (tag == "input" and attrs.get("type") == "submit"):
            self.forms[-1].buttons.append((attrs["name"], attrs.get("value", "")))
        elif tag == "input":
            self.forms[-1].fields[attrs["name"]] = attrs.get("value", "")


def forms_of(response):
    reader = _FormReader()
    reader.feed(response.text)
    return reader.forms


def authorize(session, authorization_url, redirect_uri, username, password):
    """Follows an authorization request through whatever pages TIL shows (login, consent) to
    the redirect URI. Returns the redirect's query parameters and the pages passed through."""
    response, pages = sign_in(session, session.get(authorization_url, timeout=10), redirect_uri, username, password)
    check_status(response, 200, "authorize: the browser lands on the client's redirect URI")
    return dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(response.url).query)), pages


def sign_in(session, response, back_at, username, password):
    """From a page of TIL's (`response`), fills in what TIL shows (login, consent) until the
    browser is back at a URL starting with `back_at`. Returns that response and the pages."""
    pages = []
    while not response.url.startswith(back_at):
        check_status(response, 200, f"authorize: the {len(pages) + 1}. page answers 200")
        forms = forms_of(response)
        login = next((form for form in forms if "password" in form.fields), None)
        consent = next((form for form in forms if ("decision", "approve") in form.buttons), None)
        if login and "login" not in pages:
            check("csrf_token" in login.fields, "authorize: the login form carries a csrf_token")
            response = _submit(session, response, login, login.values(username=username, password=password))
            pages.append("login")
        elif consent and "consent" not in pages:
            response = _submit(session, response, consent, consent.values(decision="approve"))
            pages.append("consent")
        else:
            check(False, "authorize: TIL shows a login or consent page, or redirects",
                  f"{response.url} after {pages}: {response.text[:800]}")
    return response, pages


def _submit(session, page, form, values):
    action = urllib.parse.urljoin(page.url, form.action or page.url)
    if form.method == "post":
        return session.post(action, data=values, timeout=10)
    return session.get(action, params=values, timeout=10)


def approve_device(session, verification_uri_complete, user_code, username, password, decision="approve"):
    """A person finishing RFC 8628 at TIL's verification page: signs in when asked, finds the
    code filled in, sends it, and decides on the consent page that always follows. Returns the
    last page."""
    response = session.get(verification_uri_complete, timeout=10)
    login = next((form for form in forms_of(response) if "password" in form.fields), None)
    if login:
        response = _submit(session, response, login, login.values(username=username, password=password))
    check_status(response, 200, "device: the verification page answers 200 once signed in")
    entry = next((form for form in forms_of(response) if "user_code" in form.fields), None)
    check(entry is not None, "device: the page has a form with a user_code field", response.text[:800])
    check(entry.fields["user_code"] == user_code, "device: verification_uri_complete fills the code in", entry.fields)
    check("csrf_token" in entry.fields, "device: the code form carries a csrf_token")
    response = _submit(session, response, entry, entry.values())
    consent = next((form for form in forms_of(response) if ("decision", decision) in form.buttons), None)
    check(consent is not None, "device: the consent page follows, whatever the client", response.text[:800])
    response = _submit(session, response, consent, consent.values(decision=decision))
    check_status(response, 200, f"device: {decision} answers a page")
    return response
