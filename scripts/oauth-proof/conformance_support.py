"""What every reproduced conformance-suite module shares (issue 19): the discovered OpenID
Provider, a client registered dynamically (the suite's `dynamic_client` variant; TIL's RFC 7591
endpoint wants the admin's `clients:write` token, the suite's "initial access token"), a fresh
browser (a requests session: cookies, TIL's login and consent forms) and the suite's checks of
an authorization response, a token answer and an id_token.

Every authorization request carries PKCE S256: TIL requires it of every client and the suite's
modules do not send it (only oidcc-ensure-request-with-valid-pkce-succeeds does), so an
unmodified suite run needs PKCE added. Nothing else differs from the suite's requests."""

import base64
import hashlib
import json
import secrets
import urllib.parse
import warnings

import requests

from html_forms import forms_of
from proof import ADMIN_PASSWORD, TIL_URL, check, check_equal, check_status

warnings.filterwarnings("ignore", message=".*authlib.jose module is deprecated.*")
from authlib.jose import JsonWebKey, jwt  # noqa: E402  (after the filter: authlib 1.x warns on import)
from authlib.oidc.core import CodeIDToken  # noqa: E402

# Never followed: the suite's callback is only read from the Location header.
REDIRECT_URI = "http://127.0.0.1:9/conformance/callback"
POST_LOGOUT_REDIRECT_URI = "http://127.0.0.1:9/conformance/post_logout_redirect"


class Unsupported(Exception):
    """The module ended the way the suite accepts from an OP that chose not to support the
    feature ("skipped", or "finished with a warning" for an optional form): the words are the
    suite's."""


WARNINGS = []  # the current module's: the suite's WARNING results (the module still passes)


def suite_warning(condition, words):
    """A check the suite makes with ConditionResult.WARNING: recorded, in its words, when it
    does not hold; the module still passes, as in the suite."""
    if not condition:
        WARNINGS.append(words)


def random_token(size=32):
    return secrets.token_urlsafe(size)


class Provider:
    """The OP as the suite sees it after `GetDynamicServerConfiguration`."""

    def __init__(self):
        response = requests.get(f"{TIL_URL}/.well-known/openid-configuration", timeout=10)
        check_status(response, 200, "discovery: /.well-known/openid-configuration answers")
        self.metadata = response.json()
        self.issuer = self.metadata["issuer"]
        keys = requests.get(self.metadata["jwks_uri"], timeout=10)
        check_status(keys, 200, "discovery: jwks_uri answers")
        self.jwks = keys.json()
        login = requests.post(f"{TIL_URL}/api/users/login", params={"scope": "clients:write"},
                              auth=("admin", ADMIN_PASSWORD), timeout=10)
        check_status(login, 200, "the admin's initial access token (clients:write)")
        self._initial_access_token = login.json()["value"]

    def __getitem__(self, field):
        return self.metadata[field]

    def register(self, auth_method="client_secret_basic", grant_types=("authorization_code",),
                 scope="openid profile offline_access", **extra):
        """The suite's dynamic registration: one redirect URI, one post-logout redirect URI."""
        body = {"client_name": "Conformance reproduction", "redirect_uris": [REDIRECT_URI],
                "post_logout_redirect_uris": [POST_LOGOUT_REDIRECT_URI], "token_endpoint_auth_method": auth_method,
                "grant_types": list(grant_types), "scope": scope, **extra}
        response = requests.post(self.metadata["registration_endpoint"], json=body, timeout=10,
                                 headers={"Authorization": f"Bearer {self._initial_access_token}"})
        check_status(response, 201, "registration: the client is registered")
        return Client(self, response.json())


class Client:
    """A registered client and the suite's side of the code flow."""

    def __init__(self, provider, registered):
        self.provider = provider
        self.id = registered["client_id"]
        self.secret = registered.get("client_secret")
        self.auth_method = registered["token_endpoint_auth_method"]

    def request(self, scope="openid", nonce=True, **extra):
        """The suite's authorization request (`None` drops a parameter), PKCE S256 added."""
        verifier = random_token(48)
        challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()
        parameters = {"client_id": self.id, "redirect_uri": REDIRECT_URI, "response_type": "code", "scope": scope,
                      "state": random_token(), "code_challenge": challenge, "code_challenge_method": "S256"}
        if nonce:
            parameters["nonce"] = random_token()
        parameters.update(extra)
        return AuthorizationRequest({k: v for k, v in parameters.items() if v is not None}, verifier)

    def _authenticated(self, form):
        if self.auth_method == "client_secret_post":
            return {"data": {**form, "client_id": self.id, "client_secret": self.secret}}
        return {"data": form, "auth": (self.id, self.secret)}

    def token_request(self, form):
        return requests.post(self.provider["token_endpoint"], timeout=10, **self._authenticated(form))

    def redeem(self, request, callback):
        """The token endpoint's answer to the callback's code, checked as the suite checks it."""
        response = self.token_request({"grant_type": "authorization_code", "code": callback["code"],
                                       "redirect_uri": REDIRECT_URI, "code_verifier": request.verifier})
        check_status(response, 200, "token endpoint: the code is redeemed")
        check(response.headers.get("Content-Type", "").startswith("application/json"), "token endpoint: JSON")
        check_equal(response.headers.get("Cache-Control"), "no-store", "token endpoint: Cache-Control: no-store")
        tokens = response.json()
        check_equal(tokens.get("token_type", "").lower(), "bearer", "token endpoint: a Bearer token")
        check("id_token" in tokens, "token endpoint: an id_token (scope openid)")
        return tokens

    def validate(self, id_token, request=None, access_token=None, max_age=False):
        """PerformStandardIdTokenChecks: the signature against jwks_uri with the header's kid,
        iss, aud, azp, exp, iat, sub, nonce, at_hash (authlib's CodeIDToken), auth_time."""
        header = _jose_header(id_token)
        check(header.get("kid") in {key.get("kid") for key in self.provider.jwks["keys"]},
              "id_token: its kid is published at jwks_uri")
        params = {"client_id": self.id, "access_token": access_token}
        if request is not None and "nonce" in request.parameters:
            params["nonce"] = request.parameters["nonce"]
        options = {"iss": {"essential": True, "value": self.provider.issuer}}
        if max_age:
            options["auth_time"] = {"essential": True}
        claims = jwt.decode(id_token, JsonWebKey.import_key_set(self.provider.jwks), claims_cls=CodeIDToken,
                            claims_options=options, claims_params=params)
        claims.validate(leeway=5)
        check(claims.get("sub"), "id_token: sub")
        check(claims.get("azp", self.id) == self.id, "id_token: azp, when present, is the client")
        if request is not None and "nonce" not in request.parameters:
            check("nonce" not in claims, "id_token: no nonce when none was sent")
        return claims, header

    def userinfo(self, access_token):
        response = requests.get(self.provider["userinfo_endpoint"], timeout=10,
                                headers={"Authorization": f"Bearer {access_token}"})
        check_status(response, 200, "userinfo: GET with the bearer header")
        return response


class AuthorizationRequest:
    def __init__(self, parameters, verifier):
        self.parameters = parameters
        self.verifier = verifier

    def url(self, provider):
        return f"{provider['authorization_endpoint']}?{urllib.parse.urlencode(self.parameters)}"


class Browser:
    """The user's browser: a cookie jar, TIL's forms filled as a person fills them. Redirects
    are followed on TIL's side only; one to the client is the callback."""

    def __init__(self):
        self.session = requests.Session()
        self.pages = []

    def authorize(self, provider, request, post=False, consent=True, sign_in=True):
        """Returns ('callback', query) when TIL redirects to REDIRECT_URI (or any client URI),
        or ('page', response) when TIL stops at a page of its own it cannot get past."""
        self.pages = []
        if post:
            response = self.session.post(provider["authorization_endpoint"], data=request.parameters,
                                         allow_redirects=False, timeout=10)
        else:
            response = self.session.get(request.url(provider), allow_redirects=False, timeout=10)
        return self.follow(response, consent=consent, sign_in=sign_in)

    def follow(self, response, consent=True, sign_in=True):
        for _ in range(10):
            check(response.status_code < 500, "the OP never answers 5xx", f"{response.status_code}: {response.text[:300]}")
            if response.is_redirect:
                location = urllib.parse.urljoin(response.url, response.headers["Location"])
                if not location.startswith(TIL_URL):
                    return "callback", _callback_parameters(location)
                response = self.session.get(location, allow_redirects=False, timeout=10)
                continue
            forms = forms_of(response)
            login = next((form for form in forms if "password" in form.fields), None)
            approve = next((form for form in forms if ("decision", "approve") in form.buttons), None)
            if login and sign_in and "login" not in self.pages:
                self.pages.append("login")
                response = self._submit(response, login, login.values(username="admin", password=ADMIN_PASSWORD))
            elif approve and consent and "consent" not in self.pages:
                self.pages.append("consent")
                response = self._submit(response, approve, approve.values(decision="approve"))
            else:
                return "page", response
        check(False, "the OP's pages end within ten steps")

    def _submit(self, page, form, values):
        action = urllib.parse.urljoin(page.url, form.action or page.url)
        if form.method == "post":
            return self.session.post(action, data=values, allow_redirects=False, timeout=10)
        return self.session.get(action, params=values, allow_redirects=False, timeout=10)


def _callback_parameters(location):
    parts = urllib.parse.urlsplit(location)
    parameters = dict(urllib.parse.parse_qsl(parts.query))
    parameters["_uri"] = urllib.parse.urlunsplit((parts.scheme, parts.netloc, parts.path, "", ""))
    return parameters


def _jose_header(compact):
    encoded = compact.split(".")[0]
    return json.loads(base64.urlsafe_b64decode(encoded + "=" * (-len(encoded) % 4)))


def expect_callback(outcome, request, claim):
    """CheckMatchingCallbackParameters, ValidateIssIfPresent, CheckStateInAuthorizationResponse."""
    kind, answer = outcome
    check_equal(kind, "callback", f"{claim}: the OP redirects to the client")
    check_equal(answer["_uri"], REDIRECT_URI, f"{claim}: to the registered redirect_uri")
    if "state" in request.parameters:
        check_equal(answer.get("state"), request.parameters["state"], f"{claim}: state returned verbatim")
    check(answer.get("iss") in (None, TIL_URL), f"{claim}: iss, when present, is the issuer (RFC 9207)")
    return answer


def code_flow(provider, client, browser, request=None, **request_parameters):
    """ServerTest's flow: authorize, redeem, validate the id_token, call userinfo."""
    request = request or client.request(**request_parameters)
    callback = expect_callback(browser.authorize(provider, request), request, "authorization")
    check("code" in callback, "authorization: a code", callback)
    tokens = client.redeem(request, callback)
    claims, header = client.validate(tokens["id_token"], request, tokens["access_token"],
                                     max_age="max_age" in request.parameters)
    client.userinfo(tokens["access_token"])
    return tokens, claims, header


def expect_error_page(outcome, claim):
    """The suite's placeholder: no redirect anywhere, an error page of the OP (a 4xx), whose
    screenshot a person would upload."""
    kind, answer = outcome
    check_equal(kind, "page", f"{claim}: the OP does not redirect")
    check(400 <= answer.status_code < 500, f"{claim}: the OP shows an error page (4xx)",
          f"{answer.status_code}: {answer.text[:300]}")
    return answer


def signed_in(op, client=None, **parameters):
    """A fresh browser signed in through the happy flow: the client, the browser, the tokens and
    the id_token's claims."""
    client = client or op.register()
    browser = Browser()
    tokens, claims, _ = code_flow(op, client, browser, **parameters)
    return client, browser, tokens, claims
