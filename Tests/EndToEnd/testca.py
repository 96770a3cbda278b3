"""A certificate authority made by a test, with openssl: no certificate is
kept in the tree. Keys are EC P-256; files are left readable by a server
that drops to its own user (nginx, mosquitto)."""
import os
import subprocess


def openssl(work, *args):
    subprocess.run(["openssl", *args], check=True, cwd=work, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def make_ca(work, name):
    """NAME.pem and NAME.key in `work`: a self-signed authority for two days."""
    openssl(work, "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
            "-keyout", f"{name}.key", "-out", f"{name}.pem", "-subj", f"/CN=RadarKiosk {name}", "-days", "2")


def make_certificate(work, name, ca, names, days):
    """NAME.pem and NAME.key: a server certificate signed by `ca` for `names`
    (host names and addresses), valid `days` (negative: already expired)."""
    openssl(work, "req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
            "-keyout", f"{name}.key", "-out", f"{name}.csr", "-subj", f"/CN={names[0]}")
    with open(os.path.join(work, f"{name}.ext"), "w") as f:
        f.write("subjectAltName=" + ",".join(("IP:" if n[0].isdigit() else "DNS:") + n for n in names) + "\n")
    openssl(work, "x509", "-req", "-in", f"{name}.csr", "-CA", f"{ca}.pem", "-CAkey", f"{ca}.key", "-CAcreateserial",
            "-out", f"{name}.pem", "-days", str(days), "-extfile", f"{name}.ext")
    for suffix in ("pem", "key"):
        os.chmod(os.path.join(work, f"{name}.{suffix}"), 0o644)
