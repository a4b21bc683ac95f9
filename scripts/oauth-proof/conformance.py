"""The OpenID Foundation conformance suite's oidcc-basic, oidcc-config and
oidcc-rp-initiated-logout test plans, reproduced (issue 19): the suite itself needs Java, Docker
and MongoDB. One test per module, named after it; each prints PASS, UNSUPPORTED (the suite's
accepted "skipped" or "warning" for an optional feature TIL chose not to offer, with its words)
or FAIL; a PASS lists the suite's WARNING results it would have shown (a SHOULD not met, an
optional claim absent), which the suite also counts as passed. Exits non-zero on any FAIL.

    conformance.py [MODULE ...]     only the named modules (e.g. MaxAge1 RpInitiatedLogout)"""

import contextlib
import io
import sys
import time
import traceback

import conformance_basic
import conformance_config
import conformance_logout
from conformance_support import WARNINGS, Provider, Unsupported

PLANS = [("oidcc-basic-certification-test-plan", conformance_basic.TESTS),
         ("oidcc-config-certification-test-plan", conformance_config.TESTS),
         ("oidcc-rp-initiated-logout-certification-test-plan", conformance_logout.TESTS)]


def run(test, op):
    """The module's outcome and, unless it passed, why."""
    checks = io.StringIO()  # each proved claim; shown only when the module fails
    WARNINGS.clear()
    try:
        with contextlib.redirect_stdout(checks):
            test(op)
        return "PASS", "; ".join(f"suite warning: {words}" for words in WARNINGS)
    except Unsupported as reason:
        return "UNSUPPORTED", str(reason)
    except SystemExit:  # proof.check printed the failed claim on stderr
        return "FAIL", checks.getvalue().strip().splitlines()[-1:] and f"after: {checks.getvalue().strip().splitlines()[-1]}"
    except Exception as failure:  # authlib's id_token validation, a missing field, ...
        return "FAIL", "".join(traceback.format_exception_only(failure)).strip()


def main(selected):
    started = time.monotonic()
    op = Provider()
    outcomes = {"PASS": 0, "UNSUPPORTED": 0, "FAIL": 0}
    warned = 0
    for plan, tests in PLANS:
        print(f"== {plan}")
        for test in tests:
            name = test.__name__.removeprefix("test_")
            if selected and name not in selected:
                continue
            module_started = time.monotonic()
            outcome, reason = run(test, op)
            outcomes[outcome] += 1
            warned += outcome == "PASS" and bool(reason)
            print(f"{outcome:<12} {name} ({time.monotonic() - module_started:.1f} s)" + (f": {reason}" if reason else ""),
                  flush=True)
    print(f"conformance: {outcomes['PASS']} passed ({warned} with a suite warning), {outcomes['UNSUPPORTED']} unsupported as the suite accepts, "
          f"{outcomes['FAIL']} failed in {time.monotonic() - started:.1f} s")
    return 1 if outcomes["FAIL"] else 0


if __name__ == "__main__":
    sys.exit(main(set(sys.argv[1:])))
