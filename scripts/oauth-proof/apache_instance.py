"""A throwaway Apache httpd with mod_auth_openidc (Debian's `apache2` and
`libapache2-mod-auth-openidc`, an OpenID Certified relying party) on a loopback port: its own
ServerRoot, config, pid file, logs and cache in a temporary folder, gone when the block ends.

What it knows of TIL is what any relying party's operator would write: the discovery URL, the
client registered for it, and PKCE S256. The rest is Apache: where it listens, the redirect URI
that mod_auth_openidc owns, its cookie passphrase, the scopes it asks for."""

import os
import pwd
import secrets
import shutil
import socket
import subprocess
import tempfile
import time

APACHE = "/usr/sbin/apache2"
MODULES = "/usr/lib/apache2/modules"
REDIRECT_PATH = "/protected/redirect_uri"   # mod_auth_openidc's own URL: under the protected path
CLAIMS_PATH = "/protected/claims.html"
LOGGED_OUT_PATH = "/logged-out.html"

# The protected page: mod_include (SSI) echoes what mod_auth_openidc put in the request's
# environment: the user it set (OIDCRemoteUserClaim), the claims it merged, and each source apart:
# the id_token (its payload, and the compact JWS for its header) and userinfo's answer as JSON; and
# the access token it holds, which the proof introspects before and after logout.
CLAIMS_PAGE = """<!doctype html><title>Protected by mod_auth_openidc</title>
<dl>
<dt>REMOTE_USER</dt><dd id="remote_user"><!--#echo var="REMOTE_USER" --></dd>
<dt>OIDC_CLAIM_sub</dt><dd id="sub"><!--#echo var="OIDC_CLAIM_sub" --></dd>
<dt>OIDC_CLAIM_preferred_username</dt><dd id="preferred_username"><!--#echo var="OIDC_CLAIM_preferred_username" --></dd>
<dt>OIDC_id_token_payload</dt><dd id="id_token_payload"><!--#echo var="OIDC_id_token_payload" --></dd>
<dt>OIDC_id_token</dt><dd id="id_token"><!--#echo var="OIDC_id_token" --></dd>
<dt>OIDC_userinfo_json</dt><dd id="userinfo_json"><!--#echo var="OIDC_userinfo_json" --></dd>
<dt>OIDC_access_token</dt><dd id="access_token"><!--#echo var="OIDC_access_token" --></dd>
</dl>
"""
LOGGED_OUT_PAGE = "<!doctype html><title>Signed out</title><p>Signed out of the relying party.</p>\n"

CONFIG = """\
ServerRoot "{root}"
ServerName 127.0.0.1
Listen 127.0.0.1:{port}
PidFile "{root}/httpd.pid"
DefaultRuntimeDir "{root}/run"
ErrorLog "{root}/error.log"
LogLevel warn auth_openidc:info
{user}
LoadModule mpm_event_module {modules}/mod_mpm_event.so
LoadModule authn_core_module {modules}/mod_authn_core.so
LoadModule authz_core_module {modules}/mod_authz_core.so
LoadModule authz_user_module {modules}/mod_authz_user.so
LoadModule include_module {modules}/mod_include.so
LoadModule auth_openidc_module {modules}/mod_auth_openidc.so
# One child with a few threads: mod_auth_openidc's shared-memory cache works across children,
# but a throwaway instance needs no more.
StartServers 1
ServerLimit 1
ThreadsPerChild 4
MaxRequestWorkers 4
DocumentRoot "{root}/htdocs"
<Directory "{root}/htdocs">
    Options +Includes
    Require all granted
</Directory>

OIDCProviderMetadataURL {discovery}
OIDCClientID {client_id}
OIDCClientSecret {client_secret}
OIDCPKCEMethod S256
OIDCRedirectURI {base}{redirect_path}
OIDCCryptoPassphrase {passphrase}
OIDCScope "openid profile"
OIDCRemoteUserClaim sub
OIDCPassIDTokenAs claims payload serialized
OIDCPassUserInfoAs claims json
OIDCHTTPTimeoutShort 10

<Location /protected>
    AuthType openid-connect
    Require valid-user
</Location>
<Location {claims_path}>
    ForceType text/html
    SetOutputFilter INCLUDES
</Location>
"""


class PortTaken(RuntimeError):
    """Another process took the port between `free_loopback_port` and Apache's bind."""


def free_loopback_port():
    """A port the kernel just handed out on 127.0.0.1: Apache cannot listen on port 0 and say
    where. Rarely, another process takes it before Apache binds (`PortTaken`)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class ApacheRelyingParty:
    """`with ApacheRelyingParty(base, discovery_url, client_id, client_secret) as apache:` runs
    Apache at `base` (http://127.0.0.1:PORT) until the block ends; `apache.error_log()` is its
    log, for a failure's report."""

    def __init__(self, base, discovery_url, client_id, client_secret):
        self.base = base
        self.port = int(base.rsplit(":", 1)[1])
        port = self.port
        self.root = tempfile.mkdtemp(prefix="til-apache-rp-")
        self._process = None
        values = dict(root=self.root, port=port, modules=MODULES, discovery=discovery_url, client_id=client_id,
                      client_secret=client_secret, base=self.base, redirect_path=REDIRECT_PATH,
                      passphrase=secrets.token_hex(32), claims_path=CLAIMS_PATH, user=self._unprivileged_user())
        for folder in ("htdocs/protected", "run"):
            os.makedirs(os.path.join(self.root, folder))
        self._write("httpd.conf", CONFIG.format(**values), mode=0o600)
        self._write("htdocs" + CLAIMS_PATH, CLAIMS_PAGE)
        self._write("htdocs" + LOGGED_OUT_PATH, LOGGED_OUT_PAGE)

    @staticmethod
    def redirect_uri_at(base):
        """mod_auth_openidc's redirect URI, registered with TIL before Apache starts."""
        return base + REDIRECT_PATH

    @staticmethod
    def logged_out_url_at(base):
        """Where TIL's end_session_endpoint returns the browser (a post_logout_redirect_uri)."""
        return base + LOGGED_OUT_PATH

    @property
    def redirect_uri(self):
        return self.redirect_uri_at(self.base)

    @property
    def logged_out_url(self):
        return self.logged_out_url_at(self.base)

    @property
    def claims_url(self):
        return self.base + CLAIMS_PATH

    def _unprivileged_user(self):
        """Apache refuses to serve as root: as root, its children become www-data, who must
        read the pages (the folder is made traversable; the config stays root's)."""
        if os.geteuid() != 0:
            return ""
        user = pwd.getpwnam("www-data")
        os.chmod(self.root, 0o755)
        return f"User {user.pw_name}\nGroup #{user.pw_gid}"

    def _write(self, relative, text, mode=0o644):
        path = os.path.join(self.root, relative)
        with open(path, "w", encoding="utf-8") as file:
            file.write(text)
        os.chmod(path, mode)

    def __enter__(self):
        try:
            self._start()
        except BaseException:
            self._stop()
            raise
        return self

    def __exit__(self, *exc):
        self._stop()

    def _start(self, deadline_seconds=10):
        config = os.path.join(self.root, "httpd.conf")
        checked = subprocess.run([APACHE, "-t", "-f", config], capture_output=True, text=True, timeout=30)
        if checked.returncode != 0:
            raise RuntimeError(f"apache2 -t refused the config: {checked.stderr}")
        self._process = subprocess.Popen([APACHE, "-f", config, "-DFOREGROUND"],
                                         stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + deadline_seconds
        while time.monotonic() < deadline:
            if self._process.poll() is not None:
                log = self.error_log()
                failure = PortTaken if "Address already in use" in log else RuntimeError
                raise failure(f"apache2 exited ({self._process.returncode}):\n{log}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1):
                    return
            except OSError:
                time.sleep(0.02)
        raise RuntimeError(f"apache2 did not listen on {self.base} within {deadline_seconds} s:\n{self.error_log()}")

    def _stop(self):
        if self._process is not None and self._process.poll() is None:
            self._process.terminate()
            try:
                self._process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self._process.kill()
                self._process.wait()
        self._process = None
        shutil.rmtree(self.root, ignore_errors=True)

    def error_log(self):
        try:
            with open(os.path.join(self.root, "error.log"), encoding="utf-8", errors="replace") as log:
                return log.read()[-8000:]
        except OSError as error:
            return f"(no error log: {error})"
