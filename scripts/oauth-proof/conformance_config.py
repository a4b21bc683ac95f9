"""The conformance suite's `oidcc-config-certification-test-plan` (OIDCCConfigTestPlan): its one
module, OIDCCDiscoveryEndpointVerification, with the conditions it calls, in order."""

import re
import urllib.parse

import requests

from proof import TIL_URL, check, check_equal


def endpoint_is_https(url, claim):
    """CheckDiscEndpointAllEndpointsAreHttps: https, except that this reproduction serves TIL over
    loopback http (RFC 8252 §8.3), so a loopback http URL on the issuer passes here; the suite
    itself would be pointed at TIL's https deployment."""
    parts = urllib.parse.urlsplit(url)
    loopback = parts.scheme == "http" and parts.hostname in ("127.0.0.1", "localhost", "::1") and url.startswith(TIL_URL)
    check(parts.scheme == "https" or loopback, f"{claim}: https (or this run's loopback issuer)", url)


def test_DiscoveryEndpointVerification(op):
    """oidcc-discovery-endpoint-verification: JSON content type; response_types_supported with
    code, id_token and id_token token (the Dynamic profile: a failure there only for OPs certified
    as Dynamic, so `code` alone is checked, as OIDCCCheckDiscEndpointResponseTypesSupported
    does); the discovery URL is issuer + /.well-known/openid-configuration; the issuer a valid
    URL without query or fragment; subject_types_supported public or pairwise;
    id_token_signing_alg_values_supported with RS256 and not only none; authorization, token and
    jwks endpoints; the JWKS fetched and valid (every key a kid, kty, public only);
    request/request_uri/claims_parameter_supported booleans; claims_supported;
    grant_types_supported with authorization_code; scopes_supported with openid, each scope a
    valid scope token; every endpoint https; code_challenge_methods_supported an array."""
    response = requests.get(f"{TIL_URL}/.well-known/openid-configuration", timeout=10)
    check(response.headers.get("Content-Type", "").startswith("application/json"), "discovery: application/json")
    metadata = response.json()
    check("code" in metadata["response_types_supported"], "response_types_supported has code")
    check_equal(f"{metadata['issuer']}/.well-known/openid-configuration", response.url, "the discovery URL is the issuer's")
    issuer = urllib.parse.urlsplit(metadata["issuer"])
    check(issuer.scheme and issuer.netloc and not issuer.query and not issuer.fragment, "the issuer is a valid URL")
    check(set(metadata["subject_types_supported"]) <= {"public", "pairwise"} and metadata["subject_types_supported"],
          "subject_types_supported: public or pairwise")
    algorithms = metadata["id_token_signing_alg_values_supported"]
    check("RS256" in algorithms and algorithms != ["none"], "id_token_signing_alg_values_supported has RS256")
    for endpoint in ("authorization_endpoint", "token_endpoint", "jwks_uri", "userinfo_endpoint"):
        endpoint_is_https(metadata[endpoint], endpoint)
    for endpoint, url in metadata.items():
        if endpoint.endswith("_endpoint") or endpoint == "jwks_uri":
            endpoint_is_https(url, endpoint)
    keys = requests.get(metadata["jwks_uri"], timeout=10).json()["keys"]
    check(keys and all(key.get("kid") and key.get("kty") for key in keys), "every published key has kid and kty")
    check(all(not {"d", "p", "q", "dp", "dq", "qi"} & set(key) for key in keys), "no private key part is published")
    check_equal(len({key["kid"] for key in keys}), len(keys), "kids are unique")
    for flag in ("request_parameter_supported", "request_uri_parameter_supported", "claims_parameter_supported"):
        check(isinstance(metadata.get(flag, False), bool), f"{flag} is a boolean when present")
    check(isinstance(metadata.get("claims_supported"), list) and "sub" in metadata["claims_supported"], "claims_supported lists sub")
    check("authorization_code" in metadata.get("grant_types_supported", ["authorization_code", "implicit"]),
          "grant_types_supported has authorization_code")
    check("openid" in metadata["scopes_supported"], "scopes_supported has openid")
    check(all(re.fullmatch(r"[\x21\x23-\x5B\x5D-\x7E]+", scope) for scope in metadata["scopes_supported"]),
          "every scope is a scope token (RFC 6749 §3.3)")
    check(isinstance(metadata.get("code_challenge_methods_supported"), list), "code_challenge_methods_supported is an array")


TESTS = [test_DiscoveryEndpointVerification]
