"""x509-limbo's test cases through `pkit verify`: each case's trust anchors,
intermediates, leaf, validation time, purpose, expected name, chain depth and CRLs
become one `pkit verify` run, and its exit code (0 valid, 1 rejected) is held against
the result the case expects. The runner is pkit's own; the cases are x509-limbo's.

    python3 limbo_run.py compile CHECKOUT OUT.json
    python3 limbo_run.py run LIMBO.json PKIT [--rules webpki|rfc5280] [--cases FILE]

`compile` builds the suite from a checkout of the x509-limbo repository (C2SP/x509-limbo;
it needs pydantic, pyyaml, pyOpenSSL, requests, jinja2 and certifi beside cryptography)
without its BetterTLS cases, whose generated asset is not in every checkout; a case the
installed cryptography cannot build is left out and named on stderr. `run` prints one
JSON line per case (id, expected, pkit's verdict, reason, detail), then a summary line:
cases, agreements, false accepts (pkit valid where the case expects a failure) and false
rejects, each with its ids. `--cases FILE` keeps only the ids listed in FILE.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile


def args_for(tc, d, rules):
    """The `pkit verify` arguments for test case `tc`, its files written under `d`."""

    def write(name, pems):
        path = os.path.join(d, name)
        with open(path, "w") as f:
            f.write("\n".join(pems))
        return path

    argv = ["verify", "-f", "json", "--rules", rules, "--roots", write("roots.pem", tc["trusted_certs"])]
    if tc["untrusted_intermediates"]:
        argv += ["--untrusted", write("untrusted.pem", tc["untrusted_intermediates"])]
    if tc.get("validation_time"):
        argv += ["--now", tc["validation_time"].replace("+00:00", "Z")]
    argv += ["--purpose", "server" if tc["validation_kind"] == "SERVER" else "client"]
    name = tc.get("expected_peer_name") or next(iter(tc.get("expected_peer_names") or []), None)
    if name:
        flag = {"DNS": "--hostname", "IP": "--ip", "RFC822": "--email"}[name["kind"]]
        argv += [flag, name["value"]]
    if tc.get("max_chain_depth") is not None:
        argv += ["--max-depth", str(tc["max_chain_depth"])]
    for i, crl in enumerate(tc.get("crls") or []):
        argv += ["--crl", write(f"crl{i}.pem", [crl])]
    argv.append(write("leaf.pem", [tc["peer_certificate"]]))
    return argv


def verdict(pkit, tc, rules):
    with tempfile.TemporaryDirectory() as d:
        try:
            r = subprocess.run([pkit] + args_for(tc, d, rules), capture_output=True, timeout=60)
        except subprocess.TimeoutExpired:
            return "FAILURE", "timeout", ""
    if r.returncode not in (0, 1):
        # A usage or parse error: pkit did not accept the chain.
        return "FAILURE", f"exit {r.returncode}", r.stderr.decode(errors="replace").strip()
    item = json.loads(r.stdout)["items"][0]
    if item.get("valid"):
        return "SUCCESS", "valid", ""
    return "FAILURE", item.get("reason", "?"), item.get("detail", "")


def compile_suite(checkout, out):
    sys.path.insert(0, checkout)
    from limbo import testcases  # noqa: E402  (the checkout's package)
    from limbo.models import Limbo
    from limbo.testcases import online

    online.register_testcases()
    built = []
    for name, make in testcases.registry.items():
        try:
            built.append(make())
        except Exception as e:  # a case this cryptography cannot build
            print(f"left out {name}: {type(e).__name__}: {e}", file=sys.stderr)
    with open(out, "w") as f:
        f.write(Limbo(version=1, testcases=built).model_dump_json())
    print(f"{len(built)} cases", file=sys.stderr)


def run(a):
    with open(a.limbo) as f:
        cases = json.load(f)["testcases"]
    if a.cases:
        with open(a.cases) as f:
            keep = {line.strip() for line in f if line.strip()}
        cases = [tc for tc in cases if tc["id"] in keep]
    agree, false_accepts, false_rejects = 0, [], []
    for tc in cases:
        got, reason, detail = verdict(a.pkit, tc, a.rules)
        want = tc["expected_result"]
        print(json.dumps({"id": tc["id"], "expected": want, "pkit": got, "reason": reason,
                          "detail": detail}))
        if got == want:
            agree += 1
        elif got == "SUCCESS":
            false_accepts.append(tc["id"])
        else:
            false_rejects.append(tc["id"])
    print(json.dumps({"rules": a.rules, "cases": len(cases), "agree": agree,
                      "false_accepts": false_accepts, "false_rejects": false_rejects}))


def main():
    p = argparse.ArgumentParser()
    sub = p.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("compile")
    c.add_argument("checkout")
    c.add_argument("out")
    r = sub.add_parser("run")
    r.add_argument("limbo")
    r.add_argument("pkit")
    r.add_argument("--rules", default="webpki", choices=["webpki", "rfc5280"])
    r.add_argument("--cases")
    a = p.parse_args()
    if a.cmd == "compile":
        compile_suite(a.checkout, a.out)
    else:
        run(a)


if __name__ == "__main__":
    sys.exit(main())
