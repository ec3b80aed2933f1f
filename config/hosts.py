"""The host names a server bound to an address answers to, and the URLs to open on the phones.

Standard library only: ``make run``, ``make serve`` and ``deploy/serve.py`` call it before Django
is set up. ``python -m config.hosts 0.0.0.0:8000`` prints the comma-separated list for
``DJANGO_ALLOWED_HOSTS``; ``--urls`` prints the URLs instead, one a line.

Django refuses a request whose Host header is not allowed (400, DisallowedHost). A phone on the
club's Wi-Fi asks for the server's LAN address (``http://192.168.1.20:8000/``), so a server bound
to every interface (``0.0.0.0``) must allow this machine's LAN addresses and its names, not only
``localhost``.
"""

from __future__ import annotations

import argparse
import socket

LOOPBACK = ["127.0.0.1", "localhost", "[::1]"]
WILDCARDS = {"0.0.0.0", "::", "[::]", ""}


def split_bind(bind: str) -> tuple[str, int]:
    """``"0.0.0.0:8000"`` → ``("0.0.0.0", 8000)``; a bare port binds the loopback address."""
    if bind.isdigit():
        return "127.0.0.1", int(bind)
    host, _, port = bind.rpartition(":")
    if not host or not port.isdigit():
        raise ValueError(f"expected ADDRESS:PORT, got {bind!r}")
    return host, int(port)


def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses on its networks (not loopback), best first."""
    found: list[str] = []
    # The address of the interface that routes outwards; connecting a UDP socket sends nothing.
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1, never routed anywhere real
            found.append(probe.getsockname()[0])
    except OSError:
        pass
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            found.append(str(info[4][0]))
    except OSError:
        pass
    return [address for i, address in enumerate(found) if not address.startswith("127.") and address not in found[:i]]


def machine_names() -> list[str]:
    """The machine's own name and its mDNS name (``hut.local``), which many phones resolve."""
    name = socket.gethostname().split(".")[0]
    return [name, f"{name}.local"] if name and name != "localhost" else []


def allowed_hosts(bind: str) -> list[str]:
    """The hosts a server bound to ``bind`` is reachable as: loopback always; on every interface
    also the LAN addresses and the machine's names; on one address that address."""
    host, _port = split_bind(bind)
    hosts = list(LOOPBACK)
    if host in WILDCARDS:
        hosts += lan_addresses() + machine_names()
    elif host not in hosts:
        hosts.append(host)
    return hosts


def phone_urls(bind: str, scheme: str = "http") -> list[str]:
    """The URLs to open: on every interface, one per LAN address (a phone cannot use 127.0.0.1)."""
    host, port = split_bind(bind)
    addresses = (lan_addresses() or ["127.0.0.1"]) if host in WILDCARDS else [host]
    return [f"{scheme}://{address}:{port}/" for address in addresses]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("bind", help="ADDRESS:PORT the server binds, e.g. 0.0.0.0:8000")
    parser.add_argument("--urls", action="store_true", help="print the URLs for the phones instead")
    args = parser.parse_args()
    print("\n".join(phone_urls(args.bind)) if args.urls else ",".join(allowed_hosts(args.bind)))


if __name__ == "__main__":
    main()
