"""Verifies the software authenticator's responses (webauthn-crosscheck's JSON on stdin) with
py_webauthn, an independent WebAuthn Level 3 verifier: every registration and assertion must
verify there too and yield the same credential id, COSE key and sign counts TIL's verifier
reported; every tampered assertion must be refused there too."""
import json
import sys

from webauthn import verify_authentication_response, verify_registration_response
from webauthn.helpers import base64url_to_bytes
from webauthn.helpers.exceptions import InvalidAuthenticationResponse


def check(document):
    rp_id, origin = document["rpID"], document["origin"]
    for case in document["cases"]:
        name, swift = case["name"], case["swift"]
        registration = verify_registration_response(
            credential=case["registration"],
            expected_challenge=base64url_to_bytes(case["registrationChallenge"]),
            expected_rp_id=rp_id,
            expected_origin=origin,
            require_user_verification=True,
        )
        assert registration.credential_id == base64url_to_bytes(swift["credentialID"]), name
        assert registration.credential_public_key == base64url_to_bytes(swift["publicKey"]), name
        assert registration.sign_count == swift["signCount"], name
        fmt = getattr(registration.fmt, "value", registration.fmt)
        assert fmt == swift["fmt"], name
        authentication = verify_authentication_response(
            credential=case["authentication"],
            expected_challenge=base64url_to_bytes(case["authenticationChallenge"]),
            expected_rp_id=rp_id,
            expected_origin=origin,
            credential_public_key=registration.credential_public_key,
            credential_current_sign_count=registration.sign_count,
            require_user_verification=True,
        )
        assert authentication.new_sign_count == swift["assertionSignCount"], name
        try:
            verify_authentication_response(
                credential=case["tamperedAuthentication"],
                expected_challenge=base64url_to_bytes(case["authenticationChallenge"]),
                expected_rp_id=rp_id,
                expected_origin=origin,
                credential_public_key=registration.credential_public_key,
                credential_current_sign_count=authentication.new_sign_count - 1,
                require_user_verification=True,
            )
        except InvalidAuthenticationResponse:
            pass
        else:
            raise AssertionError(f"{name}: py_webauthn accepted a tampered signature")
        print(f"  {name}: py_webauthn verified the registration ({fmt}) and the assertion, refused the tampered one")
    return len(document["cases"])


if __name__ == "__main__":
    count = check(json.load(sys.stdin))
    print(f"webauthn crosscheck: {count} cases agree with py_webauthn")
